from taash.cli import main

main()
