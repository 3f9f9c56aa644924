	if true; then
		cat <<-EOT
		indented with tabs
			deeper
		EOT
	fi
