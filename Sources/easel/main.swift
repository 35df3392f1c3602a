import EaselCommands

EaselCommand.main()
