// The TipSplitPlugin module.
