from sim.cli.main import main

main()
