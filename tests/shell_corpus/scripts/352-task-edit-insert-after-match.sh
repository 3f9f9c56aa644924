sed -i '/^import logging/a import os' src/app.py
sed -n '1,5p' src/app.py
grep -n '^import' src/app.py
