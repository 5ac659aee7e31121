from training.hard_pairs import main

main()
