from tdd_sandbox.cli import main

main()
