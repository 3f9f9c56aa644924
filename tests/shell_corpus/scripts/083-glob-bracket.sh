echo src/[am]*.py
echo data/[!s]*
echo logs/*.[0-9]
echo tests/test_[a-m]*.py
