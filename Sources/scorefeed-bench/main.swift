import ScoreFeedBench

await BenchCommand.runMain()
