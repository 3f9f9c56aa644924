cp logs/app.log logs/app.log.2
find logs -name '*.log.*' | sort
find logs -name '*.log.*' -delete
find logs -type f | sort
