write_cfg() {
	cat <<-EOF > "$1"
		name=$2
		level=${3:-1}
	EOF
}
write_cfg build/a.cfg alpha
write_cfg build/b.cfg beta 5
cat build/a.cfg build/b.cfg
