import ScoreFeedCLI

await ScoreFeedCommand.runMain()
