/* What a program learns of the CPU: AT_HWCAP, AT_HWCAP2, /proc/cpuinfo's Features, and
 * the instructions of the advertised features, used the way a program would (only when
 * its bit is set).  The "use" lines do not depend on the machine. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

#define BIT_ATOMICS (1UL << 8)
#define BIT_ASIMDRDM (1UL << 12)
#define BIT_LRCPC (1UL << 15)
#define BIT_ASIMDFHM (1UL << 23)

int main(void) {
    unsigned long hwcap = getauxval(AT_HWCAP), hwcap2 = getauxval(AT_HWCAP2);
    printf("hwcap %#lx\nhwcap2 %#lx\n", hwcap, hwcap2);
    char line[512];
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "Features", 8) == 0)
            printf("cpuinfo %s", strchr(line, ':') + 2);
    if (f)
        fclose(f);
    if (hwcap & BIT_ATOMICS) {
        uint32_t counter = 40, old, add = 2;
        __asm__ volatile("ldaddal %w2, %w0, [%1]" : "=r"(old) : "r"(&counter), "r"(add) : "memory");
        printf("use atomics: ldaddal old %u new %u\n", old, counter);
    }
    if (hwcap & BIT_LRCPC) {
        uint64_t value = 0x1122334455667788ULL, got;
        __asm__ volatile("ldapr %0, [%1]" : "=r"(got) : "r"(&value) : "memory");
        printf("use lrcpc: ldapr %#llx\n", (unsigned long long)got);
    }
    if (hwcap & BIT_ASIMDRDM) {
        int32_t acc[4] = {1, -2, 3, 1 << 30}, x[4] = {1 << 30, -(1 << 30), 12345, 1 << 30}, y[4] = {1 << 30, 1 << 30, -678, 1 << 30};
        __asm__ volatile("ld1 {v0.4s}, [%0]\n ld1 {v1.4s}, [%1]\n ld1 {v2.4s}, [%2]\n"
                         "sqrdmlah v0.4s, v1.4s, v2.4s\n st1 {v0.4s}, [%0]"
                         : : "r"(acc), "r"(x), "r"(y) : "v0", "v1", "v2", "memory");
        printf("use asimdrdm: sqrdmlah %d %d %d %d\n", acc[0], acc[1], acc[2], acc[3]);
    }
    if (hwcap & BIT_ASIMDFHM) {
        _Float16 a[8] = {1.5, -2.25, 3.0, 0.5, 0.25, 6.0, -7.5, 1.0}, b[8] = {2.0, 4.0, -1.5, 8.0, 3.0, -0.5, 2.0, 65504.0};
        float acc[4] = {10.0f, 20.0f, 30.0f, 40.0f};
        __asm__ volatile("ld1 {v0.4s}, [%0]\n ldr q1, [%1]\n ldr q2, [%2]\n"
                         "fmlal v0.4s, v1.4h, v2.4h\n fmlsl2 v0.4s, v1.4h, v2.4h\n st1 {v0.4s}, [%0]"
                         : : "r"(acc), "r"(a), "r"(b) : "v0", "v1", "v2", "memory");
        printf("use asimdfhm: fmlal %g %g %g %g\n", acc[0], acc[1], acc[2], acc[3]);
    }
    return 0;
}
