module github.com/govengers/aikido

go 1.25
