PROJECT=inventory
VERSION=1.4.2
TAG="${PROJECT}-v${VERSION}"
echo "$TAG"
echo "${TAG%%-*}" "${TAG##*-v}"
