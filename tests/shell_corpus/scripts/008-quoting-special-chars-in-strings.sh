msg='It'\''s "quoted" & <angled> | piped; done'
echo "$msg"
echo "semicolon; ampersand & pipe |"
echo '#not a comment' # this is one
echo a#b
