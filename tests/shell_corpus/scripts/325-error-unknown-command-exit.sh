echo before
frobnicate data/sales.csv
