"""The invocations of Debian's arm64 programs that test_arm64linux_userland compares with qemu-aarch64.

Each case: (id, argv, stdin).  Every case runs in a fresh directory holding
FILES.  QUICK names the few that the default test run compares; the others
run with -m slow.
"""

from __future__ import annotations

TEXT = "line one 10\nline two 20\nthird line 5\nfourth: 40\nlast line 7\n"
WORDS = "pear\napple\nfig\napple\nbanana\nfig\napple\ncherry\n"
NUMS = "10\n9\n100\n-3\n42\n7\n1e3\n"
CSV = "name,dept,salary\nann,eng,120\nbob,ops,80\ncid,eng,100\ndee,ops,95\neve,mgmt,150\n"
OLD = "a\nb\nc\nd\ne\nf\ng\n"
NEW = "a\nB\nc\nd\ne2\nf\ng\nh\n"
MAKEFILE = ("all: out.txt count.txt\n\nout.txt: input.txt\n\tsort input.txt > out.txt\n\n"
            "count.txt: out.txt\n\twc -l < out.txt > count.txt\n\tcat count.txt\n")
HELLO_C = ('#include <stdio.h>\nint square(int x) { return x * x; }\n'
           'int main(int argc, char **argv) { printf("hello %d %s\\n", square(argc + 6), argv[0]); return 5; }\n')
PY_SCRIPT = r'''
import json, re, hashlib, itertools, decimal, fractions, struct, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
data = {"b": [1, 2, 3], "a": {"x": 1.5, "y": None}}
print(json.dumps(data, sort_keys=True))
print(re.findall(r"(\w)(\d+)", "a1 b22 c333"))
print(hashlib.sha256(b"ncpu").hexdigest())
print(list(itertools.permutations("abc", 2))[:4], list(itertools.accumulate(range(6))))
decimal.getcontext().prec = 30
print(decimal.Decimal(1) / decimal.Decimal(7), fractions.Fraction(3, 4) + fractions.Fraction(1, 6))
print(struct.pack("<IhQ", 1, -2, 3).hex(), struct.unpack(">d", struct.pack(">d", 2.5)))
try:
    import sqlite3
    con = sqlite3.connect(":memory:")
    con.execute("create table t(x)")
    con.executemany("insert into t values (?)", [(i,) for i in range(100)])
    print("sqlite3", con.execute("select sum(x), count(*) from t").fetchone())
except ImportError as error:
    print("no sqlite3 module:", error.name)
print(subprocess.run(["echo", "from", "a", "child"], capture_output=True, text=True).stdout, end="")
with ThreadPoolExecutor(max_workers=3) as pool:
    print(sorted(pool.map(lambda n: n * n, range(8))))
print(sys.version_info[:2], sorted(sys.modules)[:3])
'''
FILES = {"input.txt": TEXT, "words.txt": WORDS, "nums.txt": NUMS, "staff.csv": CSV, "old.txt": OLD,
         "new.txt": NEW, "Makefile": MAKEFILE, "hello.c": HELLO_C, "script.py": PY_SCRIPT,
         "sub/a.txt": "alpha\n", "sub/deep/b.txt": "beta\nbeta\n", "sub/c.log": "log\n",
         "bin.dat": bytes(range(256)) * 3}

BASH_FUNCS = 'f() { local n=$1; echo "f:$n:$#"; return $((n % 4)); }; f 7; echo "status $?"; f 8 x y; echo "status $?"'
BASH_ARRAYS = ('a=(zero one two three); echo ${#a[@]} ${a[2]} "${a[@]:1:2}"; declare -A m; m[x]=1; m[y]=2; '
               'for k in $(printf "%s\\n" "${!m[@]}" | sort); do echo "$k=${m[$k]}"; done; a+=(four); echo ${a[-1]}')
BASH_HEREDOC = 'cat <<EOF\nvalue $((6 * 7)) and $(echo sub)\nEOF\ncat <<"RAW"\n$HOME stays\nRAW\nread x y <<< "p q"; echo "$y$x"'
BASH_PIPES = 'sort words.txt | uniq -c | sort -rn | head -n 3; echo ${PIPESTATUS[@]}; set -o pipefail; false | true; echo $?'
BASH_JOBS = 'sleep 0 & wait $!; echo "bg status $?"; (exit 3) & wait $!; echo "sub $?"; { echo in group; } | cat'
BASH_STRINGS = 's="Hello, World"; echo ${s,,} ${s^^} ${s/World/There} ${s:7} ${#s}; printf "%05d|%-6s|%x\\n" 42 ab 255'
BASH_LOOPS = 'for ((i=0;i<5;i++)); do printf "%d " $((i*i)); done; echo; i=0; until [ $i -ge 3 ]; do i=$((i+1)); done; echo $i'
BASH_CASE = 'for w in apple fig kiwi; do case $w in a*) echo A;; f?g) echo F;; *) echo other;; esac; done; [[ abc =~ ^a(b)c$ ]] && echo ${BASH_REMATCH[1]}'
BASH_SUBST = 'x=$(wc -l < input.txt); y=`echo back`; echo "$x $y"; echo "$(( $(echo 3) + x ))"; echo $(seq 3)'
BASH_REDIRECT = 'echo one > f1; echo two >> f1; cat f1 2>&1; ls nope 2>/dev/null || echo missing; exec 3< f1; read -u 3 l; echo "fd3:$l"'
BASH_TRAP = 'trap "echo trapped EXIT" EXIT; trap "echo got USR1" USR1; kill -USR1 $$; echo after'

CASES = [
    # bash
    ("bash-echo", ["bash", "-c", "echo hello $FOO; echo $((2**40))"], ""),
    ("bash-funcs", ["bash", "-c", BASH_FUNCS], ""),
    ("bash-arrays", ["bash", "-c", BASH_ARRAYS], ""),
    ("bash-heredoc", ["bash", "-c", BASH_HEREDOC], ""),
    ("bash-pipes", ["bash", "-c", BASH_PIPES], ""),
    ("bash-jobs", ["bash", "-c", BASH_JOBS], ""),
    ("bash-strings", ["bash", "-c", BASH_STRINGS], ""),
    ("bash-loops", ["bash", "-c", BASH_LOOPS], ""),
    ("bash-case", ["bash", "-c", BASH_CASE], ""),
    ("bash-subst", ["bash", "-c", BASH_SUBST], ""),
    ("bash-redirect", ["bash", "-c", BASH_REDIRECT], ""),
    ("bash-trap", ["bash", "-c", BASH_TRAP], ""),
    ("bash-stdin", ["bash"], "echo from stdin; read a; echo got $a\nsecond\nexit 4\n"),
    ("bash-exit", ["bash", "-c", "exit 17"], ""),
    ("bash-notfound", ["bash", "-c", "nosuchcommand; echo $?"], ""),
    # coreutils
    ("cat", ["cat", "input.txt", "words.txt"], ""),
    ("sort-n", ["sort", "-n", "nums.txt"], ""),
    ("sort-g", ["sort", "-g", "-r", "nums.txt"], ""),
    ("sort-k", ["sort", "-t,", "-k3,3n", "staff.csv"], ""),
    ("uniq-c", ["uniq", "-c"], "a\na\nb\nc\nc\nc\na\n"),
    ("ls-la", ["ls", "-la", "--time-style=+", "sub"], ""),
    ("ls-R", ["ls", "-R", "-n", "--time-style=+%s"], ""),
    ("stat", ["stat", "-c", "%n %s %a %F %Y", "input.txt", "sub", "bin.dat"], ""),
    ("du", ["bash", "-c", "du -a --apparent-size -b sub | sort -k2"], ""),
    ("od", ["od", "-A", "x", "-t", "x1z", "-N", "64", "bin.dat"], ""),
    ("sha256sum", ["sha256sum", "input.txt", "bin.dat"], ""),
    ("md5sum", ["md5sum", "words.txt"], ""),
    ("date-0", ["date", "-u", "-d", "@0"], ""),
    ("date-fmt", ["date", "-u", "-d", "@1234567890", "+%Y-%m-%d %H:%M:%S %A %j %s"], ""),
    ("wc", ["wc", "input.txt", "words.txt"], ""),
    ("head-tail", ["bash", "-c", "head -n 2 input.txt; tail -c 12 input.txt; tac words.txt | head -n 2"], ""),
    ("cut-paste", ["bash", "-c", "cut -d, -f1,3 staff.csv | paste -sd';'"], ""),
    ("tr", ["tr", "a-z", "A-Z"], "Hello World\n"),
    ("seq-printf", ["bash", "-c", "seq -s, 1 3 20; printf '%08.3f\\n' 3.14159; numfmt --to=iec 1048576"], ""),
    ("expr-factor", ["bash", "-c", "expr 6 \\* 7; factor 360 9973; echo $((16#ff))"], ""),
    ("base64", ["base64", "bin.dat"], ""),
    ("mkdir-cp-mv", ["bash", "-c", "mkdir -p t/u && cp input.txt t/u/ && mv t/u/input.txt t/u/x && ls -R t && rm -r t; ls"], ""),
    ("ln-readlink", ["bash", "-c", "ln -s input.txt l; readlink l; cat l | head -1; realpath --relative-to=. l; rm l"], ""),
    ("false-status", ["false"], ""),
    ("missing-file", ["cat", "nosuchfile"], ""),
    ("id-groups", ["id"], ""),
    ("env", ["bash", "-c", "env | grep -v -e ^PATH= -e ^PWD= -e ^_= | sort; printenv FOO"], ""),
    ("nproc-uname", ["bash", "-c", "uname -m; uname -s"], ""),
    ("split-join", ["bash", "-c", "split -l 2 input.txt part.; ls part.*; cat part.* | md5sum; rm part.*"], ""),
    ("comm-join", ["bash", "-c", "sort words.txt > s1; sort -u words.txt > s2; comm -3 s1 s2; join <(echo 'a 1') <(echo 'a 2')"], ""),
    ("truncate-dd", ["bash", "-c", "dd if=bin.dat of=o.bin bs=100 count=3 2>/dev/null; truncate -s 50 o.bin; cksum o.bin"], ""),
    ("mktemp-touch", ["bash", "-c", "touch -d @100 f; stat -c %Y f; test -nt input.txt f && echo newer"], ""),
    # grep, sed
    ("grep-E", ["grep", "-E", "^(line|last) [a-z]+ [0-9]+$", "input.txt"], ""),
    ("grep-P", ["grep", "-P", "\\d{2}$", "input.txt"], ""),
    ("grep-c-v", ["grep", "-c", "-v", "-i", "LINE", "input.txt"], ""),
    ("grep-r", ["grep", "-r", "-n", "beta", "sub"], ""),
    ("grep-o", ["grep", "-o", "-w", "[a-z]*e", "words.txt"], ""),
    ("grep-none", ["grep", "zzz", "input.txt"], ""),
    ("sed-E", ["sed", "-E", "s/([a-z]+) ([a-z]+)/\\2 \\1/; s/[0-9]+/<&>/g", "input.txt"], ""),
    ("sed-n", ["sed", "-n", "2,4p;$=", "input.txt"], ""),
    ("sed-i", ["bash", "-c", "cp words.txt w2; sed -i '/apple/d; s/^f/F/' w2; cat w2"], ""),
    # gawk
    ("awk-assoc", ["awk", "-F,", "NR > 1 { sum[$2] += $3; n[$2]++ } END { for (d in sum) printf \"%-5s %6.2f %d\\n\", d, sum[d] / n[d], n[d] | \"sort\" }", "staff.csv"], ""),
    ("awk-fields", ["awk", "{ s += $NF; print NR, NF, toupper($1) } END { printf \"%.3f\\n\", s / NR }", "input.txt"], ""),
    ("awk-funcs", ["awk", "function fib(n) { return n < 2 ? n : fib(n-1) + fib(n-2) } BEGIN { for (i = 0; i < 15; i++) printf \"%d \", fib(i); print \"\"; print length(\"abc\"), substr(\"hello\", 2, 3), index(\"abc\", \"c\"), sprintf(\"%5.1e\", 12345) }"], ""),
    ("awk-gsub", ["awk", "{ n = gsub(/[aeiou]/, \"_\"); c += n; print } END { print c }", "words.txt"], ""),
    # findutils
    ("find-name", ["bash", "-c", "find . -name '*.txt' | sort"], ""),
    ("find-exec", ["bash", "-c", "find sub -type f -name '*.txt' -exec wc -c {} ';' | sort"], ""),
    ("find-plus", ["bash", "-c", "find . -type f -size -100c -exec cat {} + | sort | head -n 5"], ""),
    ("xargs", ["bash", "-c", "printf 'a\\nb\\nc\\n' | xargs -n 2 echo arg"], ""),
    # diffutils
    ("diff-u", ["diff", "-u", "--label", "old", "--label", "new", "old.txt", "new.txt"], ""),
    ("diff-same", ["diff", "input.txt", "input.txt"], ""),
    ("cmp", ["cmp", "old.txt", "new.txt"], ""),
    # gzip, xz, tar
    ("gzip-round", ["bash", "-c", "gzip -n -c input.txt > i.gz; gzip -l i.gz; gzip -dc i.gz | md5sum; rm i.gz"], ""),
    ("xz-round", ["bash", "-c", "xz -c bin.dat > b.xz; xz -dc b.xz | cmp - bin.dat && echo same; ls -l --time-style=+ b.xz | cut -d' ' -f5"], ""),
    ("tar-round", ["bash", "-c", "tar czf a.tgz --mtime=@0 --owner=0 --group=0 --sort=name sub && mkdir x && tar xzf a.tgz -C x && find x | sort && cat x/sub/deep/b.txt; tar tzvf a.tgz"], ""),
    ("tar-xz", ["bash", "-c", "tar cJf a.txz --mtime=@0 --sort=name sub input.txt && tar tJf a.txz"], ""),
    # bc, file
    ("bc", ["bc", "-l"], "scale=20; 4*a(1)\n2^100\nsqrt(2)\ndefine f(n) { if (n < 2) return n; return f(n-1) + f(n-2) }\nf(20)\n"),
    ("file", ["file", "input.txt", "bin.dat", "sub", "hello.c", "/usr/bin/bash"], ""),
    # python3
    ("python-hello", ["python3", "-c", "print('hello', 6 * 7)"], ""),
    ("python-script", ["python3", "script.py"], ""),
    ("python-error", ["python3", "-c", "import sys; print('out'); sys.exit('bad thing')"], ""),
    ("python-stdin", ["python3", "-c", "import sys, collections; c = collections.Counter(sys.stdin.read().split()); print(c.most_common(3))"], WORDS),
    ("python-os", ["python3", "-c", "import os, glob; print(os.stat('input.txt').st_size, os.path.isdir('sub'), os.environ['FOO'], sorted(glob.glob('sub/**/*.txt', recursive=True)))"], ""),
    # perl
    ("perl-regex", ["perl", "-e", "my %h; while (<>) { for my $w (/(\\w+)/g) { $h{lc $w}++ } } printf \"%s=%d\\n\", $_, $h{$_} for sort keys %h"], TEXT),
    ("perl-subs", ["perl", "-e", "sub f { my $n = shift; $n < 2 ? $n : f($n-1) + f($n-2) } print join(',', map { f($_) } 0..12), \"\\n\"; my @a = sort { $b <=> $a } (3, 11, 2); print \"@a\\n\"; printf \"%.4f %s\\n\", atan2(1,1)*4, scalar reverse 'abc'"], ""),
    # sqlite3
    ("sqlite3", ["sqlite3", ":memory:"], "create table t(id integer primary key, v integer, g text);\n"
     "with recursive c(x) as (select 1 union all select x + 1 from c where x < 10000) "
     "insert into t(v, g) select x * 7 % 1000, char(97 + x % 5) from c;\n"
     "select count(*), sum(v), avg(v), min(v), max(v) from t;\n"
     "select g, count(*), sum(v) from t group by g order by g;\n"),
    # make, gcc
    ("sqlite3-csv", ["sqlite3", "-csv", "-header", ":memory:", ".import staff.csv staff", "select dept, count(*), sum(salary) from staff group by dept order by 1;"], ""),
    ("perl-pe", ["perl", "-pe", "s/(\\d+)/$1*2/ge; $_ = uc if $. % 2"], TEXT),
    ("bash-jobcontrol", ["bash", "-c", "set -m; sleep 0 & jobs -l | wc -l; wait %1; echo waited $?; (exit 5) & wait; kill -0 $$ && echo alive"], ""),
    ("bash-printf-v", ["bash", "-c", "printf -v x '%03d-%s' 7 ok; echo $x; IFS=: read -r a b c <<< 'p:q:r'; echo $c$b$a; echo ${x@Q}"], ""),
    # make: qemu-user cannot exec /bin/sh by its absolute path (see userland_harness), so
    # make runs its recipes through the PATH's sh
    ("make", ["make", "SHELL=sh"], ""),
    ("make-again", ["bash", "-c", "make SHELL=sh >/dev/null; make SHELL=sh; touch -d @1000 input.txt; make SHELL=sh count.txt"], ""),
]
# gcc compiling hello.c is test_arm64linux_userland.test_gcc_compiles_and_runs

QUICK = {"bash-funcs", "bash-pipes", "sort-n", "ls-la", "sha256sum", "grep-E"}
