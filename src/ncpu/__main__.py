from ncpu.cli import main

raise SystemExit(main())
