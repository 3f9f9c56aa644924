# bash parses a line before running it: shopt -s extglob on the same line as
# the first extended pattern is still a syntax error; lines before it ran.
echo start
shopt -s extglob; echo src/@(app).py
echo never
