sed -i -e 's/debug = false/debug = true/' -e '/^timeout/d' -e '$a\
[cache]' config.ini
tail -n 5 config.ini
wc -l < config.ini
