grep '^#' README.md
grep -c '^- ' README.md
