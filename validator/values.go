package validator

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// HashAlgorithms maps the hash algorithm tokens ResourceSync documents use
// (the IANA "Hash Function Textual Names", as Atom Link Extensions does) to
// the length of their hex-encoded digest.
var HashAlgorithms = map[string]int{
	"md2":      32,
	"md5":      32,
	"sha-1":    40,
	"sha-224":  56,
	"sha-256":  64,
	"sha-384":  96,
	"sha-512":  128,
	"shake128": 64,
	"shake256": 128,
}

// Digest is one "alg:hexdigest" item of a hash attribute.
type Digest struct {
	Alg string // lower case
	Hex string // lower case
}

// HashProblem is one defect of a hash attribute value.
type HashProblem struct {
	// Unknown is true when the only defect is an algorithm rscheck does
	// not know, which is a warning rather than an error.
	Unknown bool
	Msg     string
}

// HashProblems returns the problems of a hash attribute value, nil when
// there are none. It does not allocate for a correct value, the common
// case in large lists.
func HashProblems(v string) []HashProblem {
	if hashLooksRight(v) {
		return nil
	}
	_, ps := ParseHash(v)
	return ps
}

// hashLooksRight reports whether v is a list of at most four items
// "alg:hex" with known lowercase algorithms, distinct, and digests of the
// right length: then ParseHash would find nothing to say.
func hashLooksRight(v string) bool {
	var seen [4]string
	n := 0
	for i := 0; ; {
		for i < len(v) && isXMLSpace(v[i]) {
			i++
		}
		if i == len(v) {
			return n > 0
		}
		// Jump rather than walk: find the colon, take the digest length
		// the algorithm implies, and check what follows it.
		colon := strings.IndexByte(v[i:], ':')
		if colon <= 0 || n == len(seen) {
			return false
		}
		alg := v[i : i+colon]
		want, known := hexLen(alg)
		start := i + colon + 1
		end := start + want
		if !known || end > len(v) || end < len(v) && !isXMLSpace(v[end]) || !isHex(v[start:end]) {
			return false
		}
		for _, s := range seen[:n] {
			if s == alg {
				return false
			}
		}
		seen[n] = alg
		n++
		i = end
	}
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// ParseHash parses a hash attribute: a whitespace-delimited list of
// hash values, each a hex-encoded digest preceded by the algorithm token and
// a colon ("md5:1e0d5cb8ef6ba40c99b14c0237be735e sha-256:854f…").
func ParseHash(v string) ([]Digest, []HashProblem) {
	var ds []Digest
	var ps []HashProblem
	items := strings.Fields(v)
	if len(items) == 0 {
		return nil, []HashProblem{{Msg: "hash is empty; expected alg:hexdigest, e.g. md5:1e0d5cb8ef6ba40c99b14c0237be735e"}}
	}
	seen := map[string]bool{}
	for _, item := range items {
		alg, digest, ok := strings.Cut(item, ":")
		if !ok || alg == "" {
			ps = append(ps, HashProblem{Msg: fmt.Sprintf("hash value %q has no algorithm: expected alg:hexdigest, e.g. %s", item, exampleHex(item))})
			continue
		}
		lalg := strings.ToLower(alg)
		if seen[lalg] {
			ps = append(ps, HashProblem{Msg: fmt.Sprintf("hash algorithm %q is given twice", alg)})
		}
		seen[lalg] = true
		if digest == "" {
			ps = append(ps, HashProblem{Msg: fmt.Sprintf("hash value %q has no digest after the colon", item)})
			continue
		}
		want, known := HashAlgorithms[lalg]
		if !isHex(digest) {
			msg := fmt.Sprintf("%s digest %q is not hex-encoded: ResourceSync requires hex digests", alg, digest)
			if b, ok := decodeBase64(digest, want, known); ok {
				msg = fmt.Sprintf("%s digest %q looks base64-encoded (%d bytes); ResourceSync requires the hex encoding: %s:%x", alg, digest, len(b), lalg, b)
			}
			ps = append(ps, HashProblem{Msg: msg})
			continue
		}
		if !known {
			hint := " (known: md5, sha-1, sha-256, sha-384, sha-512, …)"
			if s := suggestHashAlg(lalg); s != "" {
				hint = fmt.Sprintf("; did you mean %q?", s)
			}
			ps = append(ps, HashProblem{Unknown: true, Msg: fmt.Sprintf("hash algorithm %q is not a registered hash function name%s", alg, hint)})
		} else if len(digest) != want {
			ps = append(ps, HashProblem{Msg: fmt.Sprintf("%s digest has %d hex digits; %s digests have %d", alg, len(digest), lalg, want)})
			continue
		}
		ds = append(ds, Digest{Alg: lalg, Hex: strings.ToLower(digest)})
	}
	return ds, ps
}

// exampleHex proposes an alg:hexdigest for an item without algorithm: the
// item itself when it is a hex digest of a known length.
func exampleHex(item string) string {
	if isHex(item) {
		switch len(item) {
		case 32:
			return "md5:" + item
		case 40:
			return "sha-1:" + item
		case 64:
			return "sha-256:" + item
		case 128:
			return "sha-512:" + item
		}
	}
	return "md5:1e0d5cb8ef6ba40c99b14c0237be735e"
}

// decodeBase64 decodes a digest that may be base64-encoded, with or without
// padding, in the standard or URL-safe alphabet. For a known algorithm the
// decoded length must match the algorithm's; an unknown algorithm accepts
// only padded standard base64, which is less likely to be a coincidence.
func decodeBase64(s string, wantHex int, known bool) ([]byte, bool) {
	if !known {
		b, err := base64.StdEncoding.DecodeString(s)
		return b, err == nil && len(b) > 0
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil && len(b)*2 == wantHex {
			return b, true
		}
	}
	return nil, false
}

// suggestHashAlg proposes the registered name of a misspelt algorithm:
// "sha256" and "SHA_256" for "sha-256".
func suggestHashAlg(alg string) string {
	norm := strings.NewReplacer("-", "", "_", "").Replace(alg)
	for name := range HashAlgorithms {
		if strings.ReplaceAll(name, "-", "") == norm {
			return name
		}
	}
	return ""
}

func isHex(s string) bool {
	i := 0
	// Digests are long runs of lowercase hex: test a word of eight bytes
	// at once, and leave the byte loop whatever does not pass (upper case,
	// the tail, an error).
	for ; i+8 <= len(s) && lowerHex8(load64(s, i)); i += 8 {
	}
	for ; i < len(s); i++ {
		if !hexDigit[s[i]] {
			return false
		}
	}
	return s != ""
}

// load64 returns s[i:i+8] as a little-endian word; the compiler makes the
// eight loads one.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// lowerHex8 reports whether every byte of x is 0-9 or a-f. With the high
// bits clear, adding 0x80-c to a byte sets its high bit exactly when the
// byte is >= c, and no sum carries into the next byte.
func lowerHex8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	if x&highs != 0 {
		return false
	}
	ge := func(c uint64) uint64 { return (x + (0x80-c)*ones) & highs }
	digit := ge('0') &^ ge('9'+1)
	af := ge('a') &^ ge('f'+1)
	return digit|af == highs
}

// hexDigit marks the hexadecimal digits: a table lookup per byte is the
// cheapest test, also in WebAssembly.
var hexDigit = func() (t [256]bool) {
	for _, c := range "0123456789abcdefABCDEF" {
		t[c] = true
	}
	return t
}()

// hexLen returns the length of a hex digest of a registered algorithm,
// without hashing the name (the common case of hashLooksRight).
func hexLen(alg string) (int, bool) {
	switch alg {
	case "md5", "md2":
		return 32, true
	case "sha-1":
		return 40, true
	case "sha-256":
		return 64, true
	case "sha-512":
		return 128, true
	}
	n, ok := HashAlgorithms[alg]
	return n, ok
}

// topLevelTypes are the registered top-level media types (RFC 6838 and
// later registrations).
var topLevelTypes = map[string]bool{
	"application": true, "audio": true, "example": true, "font": true, "haptics": true,
	"image": true, "message": true, "model": true, "multipart": true, "text": true, "video": true,
}

// CheckMediaType checks the syntax of a media type (RFC 6838 §4.2, with
// optional RFC 2045 parameters). It returns a non-empty problem for a
// syntax error, and unknownTop for a well-formed type whose top-level type
// is not registered.
func CheckMediaType(v string) (problem string, unknownTop bool) {
	v = strings.TrimSpace(v)
	full := v
	if i := strings.IndexByte(v, ';'); i >= 0 {
		for _, p := range strings.Split(v[i+1:], ";") {
			name, val, ok := strings.Cut(strings.TrimSpace(p), "=")
			if !ok || !isToken(name) || val == "" {
				return fmt.Sprintf("media type %q has a malformed parameter %q; expected name=value", full, strings.TrimSpace(p)), false
			}
		}
		v = strings.TrimSpace(v[:i])
	}
	top, sub, ok := strings.Cut(v, "/")
	if !ok {
		return fmt.Sprintf("%q is not a media type: expected type/subtype, e.g. text/html", full), false
	}
	if !isRestrictedName(top) || !isRestrictedName(sub) {
		return fmt.Sprintf("%q is not a media type: type and subtype must be 1-127 letters, digits and !#$&-^_.+ (RFC 6838)", full), false
	}
	return "", !topLevelTypes[strings.ToLower(top)]
}

// isRestrictedName implements RFC 6838 restricted-name.
func isRestrictedName(s string) bool {
	if s == "" || len(s) > 127 || !isAlnum(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && !strings.ContainsRune("!#$&-^_.+", rune(c)) {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// isToken implements the RFC 7230 token.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && !strings.ContainsRune("!#$%&'*+-.^_`|~", rune(c)) {
			return false
		}
	}
	return true
}

// URIProblem classifies a problem with a URI.
type URIProblem uint8

// URI problems, from harmless to fatal.
const (
	URIOK         URIProblem = iota
	URINonASCII              // an IRI: characters outside ASCII should be percent-encoded
	URIRelative              // a relative reference where an absolute URI is expected
	URINotHTTP               // absolute, but not http or https
	URIInvalid               // not a URI at all (spaces, bad escapes, forbidden characters)
	URIWhitespace            // leading or trailing whitespace
)

// CheckURI checks a URI reference. It reports the most serious problem and
// a message for a person.
func CheckURI(v string) (URIProblem, string) {
	if plainHTTPURI(v) {
		return URIOK, ""
	}
	if v != strings.TrimSpace(v) {
		return URIWhitespace, fmt.Sprintf("%q has leading or trailing whitespace", v)
	}
	if v == "" {
		return URIInvalid, "the URI is empty"
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c <= ' ' || c == 0x7f:
			return URIInvalid, fmt.Sprintf("%q contains a space or control character; it must be percent-encoded (%%20)", v)
		case strings.IndexByte("<>\"{}|\\^`", c) >= 0:
			return URIInvalid, fmt.Sprintf("%q contains %q, which is not allowed in a URI and must be percent-encoded", v, c)
		case c == '%':
			if i+2 >= len(v) || !isHex(v[i+1:i+3]) {
				return URIInvalid, fmt.Sprintf("%q has a malformed percent-encoding at %q", v, v[i:min(i+3, len(v))])
			}
		}
	}
	u, err := url.Parse(v)
	if err != nil {
		return URIInvalid, fmt.Sprintf("%q is not a valid URI: %v", v, unwrapURLError(err))
	}
	if !u.IsAbs() {
		return URIRelative, fmt.Sprintf("%q is a relative reference; an absolute URI is required", v)
	}
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" {
		return URINotHTTP, fmt.Sprintf("%q uses the %q scheme; http or https is expected", v, u.Scheme)
	}
	if u.Host == "" {
		return URIInvalid, fmt.Sprintf("%q has no host", v)
	}
	if !isASCII(u.Host) {
		return URINonASCII, fmt.Sprintf("%q has a non-ASCII host name; it should be written in its ASCII form (IDNA, \"xn--…\")", v)
	}
	if !isASCII(v) {
		return URINonASCII, fmt.Sprintf("%q contains non-ASCII characters; they should be percent-encoded as UTF-8", v)
	}
	return URIOK, ""
}

// uriChars marks the ASCII characters allowed as such in the path, query
// and fragment of a URI (RFC 3986 unreserved, sub-delims, ":", "@", "/",
// "?"); "%" and "#" are handled apart.
var uriChars = func() (t [128]bool) {
	for _, c := range "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/?" {
		t[c] = true
	}
	return t
}()

// plainHTTPURI recognises, without allocating, the ordinary absolute
// http(s) URIs that fill large lists: a lowercase scheme, a host of
// letters, digits, dots and hyphens, an optional port, and a path, query
// and fragment of allowed ASCII characters with well-formed escapes.
// Anything else takes CheckURI's full path.
func plainHTTPURI(v string) bool {
	var rest string
	switch {
	case strings.HasPrefix(v, "http://"):
		rest = v[len("http://"):]
	case strings.HasPrefix(v, "https://"):
		rest = v[len("https://"):]
	default:
		return false
	}
	i := 0
	for i < len(rest) && (isAlnum(rest[i]) || rest[i] == '.' || rest[i] == '-') {
		i++
	}
	if i == 0 {
		return false
	}
	if i < len(rest) && rest[i] == ':' {
		j := i + 1
		for j < len(rest) && '0' <= rest[j] && rest[j] <= '9' {
			j++
		}
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(rest) && rest[i] != '/' && rest[i] != '?' && rest[i] != '#' {
		return false
	}
	fragment := false
	for ; i < len(rest); i++ {
		switch c := rest[i]; {
		case c < 128 && uriChars[c]:
		case c == '%':
			if i+2 >= len(rest) || !isHex(rest[i+1:i+3]) {
				return false
			}
			i += 2
		case c == '#' && !fragment:
			fragment = true
		default:
			return false
		}
	}
	return true
}

func unwrapURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// RegisteredRelations are the link relation types registered with IANA
// (Link Relations registry), which ResourceSync allows besides URIs.
var RegisteredRelations = setOf(
	"about", "acl", "alternate", "amphtml", "api-catalog", "appendix", "apple-touch-icon",
	"apple-touch-startup-image", "archives", "author", "blocked-by", "bookmark", "c2pa-manifest",
	"canonical", "chapter", "cite-as", "collection", "compression-dictionary", "contents",
	"convertedfrom", "copyright", "create-form", "current", "deprecation", "describedby",
	"describes", "disclosure", "dns-prefetch", "duplicate", "edit", "edit-form", "edit-media",
	"enclosure", "external", "first", "geofeed", "glossary", "help", "hosts", "hub",
	"ice-server", "icon", "index", "intervalafter", "intervalbefore", "intervalcontains",
	"intervaldisjoint", "intervalduring", "intervalequals", "intervalfinishedby",
	"intervalfinishes", "intervalin", "intervalmeets", "intervalmetby", "intervaloverlappedby",
	"intervaloverlaps", "intervalstartedby", "intervalstarts", "item", "last", "latest-version",
	"license", "linkset", "lrdd", "manifest", "mask-icon", "me", "media-feed", "memento",
	"micropub", "modulepreload", "monitor", "monitor-group", "next", "next-archive", "nofollow",
	"noopener", "noreferrer", "opener", "openid2.local_id", "openid2.provider", "original",
	"p3pv1", "payment", "pingback", "preconnect", "predecessor-version", "prefetch", "preload",
	"prerender", "prev", "prev-archive", "preview", "previous", "privacy-policy", "profile",
	"publication", "related", "replies", "restconf", "ruleinput", "search", "section", "self",
	"service", "service-desc", "service-doc", "service-meta", "sip-trunking-service", "siptrunk",
	"sponsored", "start", "status", "stylesheet", "subsection", "successor-version", "sunset",
	"tag", "terms-of-service", "timegate", "timemap", "type", "ugc", "up", "version-history",
	"via", "webmention", "working-copy", "working-copy-of",
)

// RelPatch is the extension relation type for links to patches (§14.4).
const RelPatch = "http://www.openarchives.org/rs/terms/patch"

// RelProblem classifies a rel value.
type RelProblem uint8

// Problems with a rel value.
const (
	RelOK           RelProblem = iota
	RelUnregistered            // well-formed lowercase name that is not in the IANA registry
	RelInvalid                 // neither a registered-style name nor an absolute URI
)

// CheckRel checks a link relation type: a registered relation name
// (lowercase, RFC 5988 reg-rel-type) or an absolute URI (ext-rel-type).
func CheckRel(v string) (RelProblem, string) {
	switch {
	case strings.TrimSpace(v) == "":
		return RelInvalid, "rel is empty"
	case v != strings.TrimSpace(v) && !strings.ContainsAny(strings.TrimSpace(v), " \t\r\n"):
		return RelInvalid, fmt.Sprintf("rel %q has surrounding whitespace; write %q: Destinations compare relation types exactly", v, strings.TrimSpace(v))
	case strings.ContainsAny(v, " \t\r\n"):
		return RelInvalid, fmt.Sprintf("rel %q holds several words; an rs:ln has exactly one relation type", v)
	case isRegRelType(v):
		if RegisteredRelations[v] {
			return RelOK, ""
		}
		return RelUnregistered, fmt.Sprintf("rel %q is not in the IANA Link Relations registry; use a registered type or a URI", v)
	}
	if u, err := url.Parse(v); err == nil && u.IsAbs() {
		return RelOK, ""
	}
	msg := fmt.Sprintf("rel %q is neither a registered relation type (lowercase) nor an absolute URI", v)
	if l := strings.ToLower(v); RegisteredRelations[l] {
		msg = fmt.Sprintf("rel %q must be written %q: registered relation types are lowercase, and Destinations compare them exactly", v, l)
	}
	return RelInvalid, msg
}

// isRegRelType implements RFC 5988 reg-rel-type: LOALPHA *( LOALPHA / DIGIT / "." / "-" ).
func isRegRelType(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// ContentCodings are the registered HTTP content codings.
var ContentCodings = setOf("aes128gcm", "br", "compress", "dcb", "dcz", "deflate", "exi", "gzip",
	"identity", "pack200-gzip", "x-compress", "x-gzip", "zstd")

func setOf(items ...string) map[string]bool {
	m := make(map[string]bool, len(items))
	for _, s := range items {
		m[s] = true
	}
	return m
}
