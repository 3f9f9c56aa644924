ls -d */
ls -1 data
ls -R docs
