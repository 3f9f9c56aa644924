cat > build.mk <<'EOF2'
.PHONY: all clean

all:
	@echo building

clean:
	rm -rf dist
EOF2
grep -c '^	' build.mk
grep '^[a-z]*:' build.mk
