from dpgui.cli import main

raise SystemExit(main())
