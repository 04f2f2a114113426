package validator

import (
	"slices"
	"strings"
	"testing"
)

const (
	md5Hex    = "1e0d5cb8ef6ba40c99b14c0237be735e"
	sha1Hex   = "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3"
	sha256Hex = "854f61290e2e197a11bc91063afce22e43f8ccc655237050ace766adc68dc784"
	// md5 and sha-256 of "res1", hex and base64-encoded.
	res1MD5Hex    = "91e7e433e34c3b8843334c1467001cb7"
	res1MD5B64    = "kefkM+NMO4hDM0wUZwActw=="
	res1SHA256Hex = "0e405b9869cefa2cf895ca31bfc1f078fa18d539b5c9881beb1dbc18b5884c96"
	res1SHA256B64 = "DkBbmGnO+iz4lcoxv8HwePoY1Tm1yYgb6x28GLWITJY="
	res1SHA256URL = "DkBbmGnO-iz4lcoxv8HwePoY1Tm1yYgb6x28GLWITJY" // URL-safe, unpadded
)

func TestParseHash(t *testing.T) {
	type prob struct {
		msg     string // substring of the message
		unknown bool
	}
	tests := []struct {
		name    string
		in      string
		digests []Digest
		probs   []prob
	}{
		{"md5", "md5:" + md5Hex, []Digest{{"md5", md5Hex}}, nil},
		{"sha-256", "sha-256:" + sha256Hex, []Digest{{"sha-256", sha256Hex}}, nil},
		{"several digests", "md5:" + md5Hex + " sha-256:" + sha256Hex,
			[]Digest{{"md5", md5Hex}, {"sha-256", sha256Hex}}, nil},
		{"any XML whitespace between digests", "\n  md5:" + md5Hex + "\n\t sha-1:" + sha1Hex + "  ",
			[]Digest{{"md5", md5Hex}, {"sha-1", sha1Hex}}, nil},
		{"case is normalized", "MD5:" + strings.ToUpper(md5Hex), []Digest{{"md5", md5Hex}}, nil},

		{"empty", "", nil, []prob{{msg: "hash is empty; expected alg:hexdigest"}}},
		{"blank", " \n ", nil, []prob{{msg: "hash is empty"}}},
		{"bare md5 digest", md5Hex, nil, []prob{{msg: `has no algorithm: expected alg:hexdigest, e.g. md5:` + md5Hex}}},
		{"bare sha-1 digest", sha1Hex, nil, []prob{{msg: "e.g. sha-1:" + sha1Hex}}},
		{"bare sha-256 digest", sha256Hex, nil, []prob{{msg: "e.g. sha-256:" + sha256Hex}}},
		{"bare sha-512 digest", strings.Repeat("ab", 64), nil, []prob{{msg: "e.g. sha-512:" + strings.Repeat("ab", 64)}}},
		{"bare text", "none", nil, []prob{{msg: `hash value "none" has no algorithm: expected alg:hexdigest, e.g. md5:1e0d5cb8ef6ba40c99b14c0237be735e`}}},
		{"empty algorithm", ":" + md5Hex, nil, []prob{{msg: "has no algorithm"}}},
		{"no digest", "md5:", nil, []prob{{msg: `hash value "md5:" has no digest after the colon`}}},

		{"not hex", "sha-1:n/a", nil, []prob{{msg: `sha-1 digest "n/a" is not hex-encoded: ResourceSync requires hex digests`}}},
		{"base64 md5", "md5:" + res1MD5B64, nil,
			[]prob{{msg: `md5 digest "` + res1MD5B64 + `" looks base64-encoded (16 bytes); ResourceSync requires the hex encoding: md5:` + res1MD5Hex}}},
		{"base64 sha-256", "sha-256:" + res1SHA256B64, nil,
			[]prob{{msg: "looks base64-encoded (32 bytes); ResourceSync requires the hex encoding: sha-256:" + res1SHA256Hex}}},
		{"base64url sha-256 without padding", "sha-256:" + res1SHA256URL, nil,
			[]prob{{msg: "looks base64-encoded (32 bytes); ResourceSync requires the hex encoding: sha-256:" + res1SHA256Hex}}},
		{"base64 of the wrong length", "md5:" + res1SHA256B64, nil, []prob{{msg: "is not hex-encoded"}}},
		{"base64 with an unknown algorithm", "crc:" + res1MD5B64, nil, []prob{{msg: "looks base64-encoded (16 bytes)"}}},
		{"spec Example 27", "sha-256:f4OxZX_x_DFGFDgghgdfb6rtSx-iosjf6735432nklj", nil, []prob{{msg: "looks base64-encoded (32 bytes)"}}},
		{"spec Example 27, not even base64", "sha-256:h986gT_t_87HTkjHYE76G558hY-jdfgy76t55sadJUYT", nil, []prob{{msg: "is not hex-encoded"}}},

		{"md5 too short", "md5:" + md5Hex[:30], nil, []prob{{msg: "md5 digest has 30 hex digits; md5 digests have 32"}}},
		{"sha-1 too long", "sha-1:" + sha1Hex + "0", nil, []prob{{msg: "sha-1 digest has 41 hex digits; sha-1 digests have 40"}}},
		{"sha-256 with an md5 digest", "sha-256:" + md5Hex, nil, []prob{{msg: "sha-256 digest has 32 hex digits; sha-256 digests have 64"}}},

		{"duplicate algorithm", "md5:" + md5Hex + " md5:" + res1MD5Hex,
			[]Digest{{"md5", md5Hex}, {"md5", res1MD5Hex}}, []prob{{msg: `hash algorithm "md5" is given twice`}}},
		{"duplicate algorithm, other case", "md5:" + md5Hex + " MD5:" + res1MD5Hex,
			[]Digest{{"md5", md5Hex}, {"md5", res1MD5Hex}}, []prob{{msg: `hash algorithm "MD5" is given twice`}}},

		{"unregistered spelling", "sha256:" + sha256Hex, []Digest{{"sha256", sha256Hex}},
			[]prob{{msg: `hash algorithm "sha256" is not a registered hash function name; did you mean "sha-256"?`, unknown: true}}},
		{"unregistered spelling, upper case", "SHA_1:" + sha1Hex, []Digest{{"sha_1", sha1Hex}},
			[]prob{{msg: `did you mean "sha-1"?`, unknown: true}}},
		{"unknown algorithm", "crc32:3610a686", []Digest{{"crc32", "3610a686"}},
			[]prob{{msg: `hash algorithm "crc32" is not a registered hash function name (known: md5, sha-1`, unknown: true}}},
		{"unknown algorithm, not hex", "crc32:xyz", nil, []prob{{msg: `crc32 digest "xyz" is not hex-encoded`}}},

		{"one good, one bad", "md5:" + md5Hex + " sha-256:" + md5Hex, []Digest{{"md5", md5Hex}},
			[]prob{{msg: "sha-256 digest has 32 hex digits"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds, ps := ParseHash(tt.in)
			if !slices.Equal(ds, tt.digests) {
				t.Errorf("ParseHash(%q) digests = %v, want %v", tt.in, ds, tt.digests)
			}
			if len(ps) != len(tt.probs) {
				t.Fatalf("ParseHash(%q) problems = %+v, want %d", tt.in, ps, len(tt.probs))
			}
			for i, p := range ps {
				if !strings.Contains(p.Msg, tt.probs[i].msg) || p.Unknown != tt.probs[i].unknown {
					t.Errorf("ParseHash(%q) problem %d = %+v, want %+v", tt.in, i, p, tt.probs[i])
				}
			}
		})
	}
}

// TestParseHashAlgorithms accepts a digest of the right length for every
// algorithm rscheck knows, and rejects one digit more or less.
func TestParseHashAlgorithms(t *testing.T) {
	for alg, n := range HashAlgorithms {
		good := alg + ":" + strings.Repeat("0f", n/2)
		if ds, ps := ParseHash(good); len(ps) != 0 || len(ds) != 1 || ds[0].Alg != alg {
			t.Errorf("ParseHash(%q) = %v, %v; want one digest, no problem", good, ds, ps)
		}
		for _, bad := range []string{good + "0", good[:len(good)-1]} {
			if _, ps := ParseHash(bad); len(ps) != 1 || ps[0].Unknown {
				t.Errorf("ParseHash(%q) problems = %v; want one length error", bad, ps)
			}
		}
	}
}

func TestCheckMediaType(t *testing.T) {
	tests := []struct {
		in         string
		problem    string // substring; "" for none
		unknownTop bool
	}{
		{"text/html", "", false},
		{"application/pdf", "", false},
		{"application/atom+xml", "", false},
		{"application/vnd.ms-excel", "", false},
		{"application/json-patch+json", "", false},
		{"image/svg+xml", "", false},
		{"TEXT/HTML", "", false},
		{" text/html ", "", false},
		{"text/html; charset=utf-8", "", false},
		{"text/html;charset=UTF-8;format=flowed", "", false},
		{`multipart/mixed; boundary="a b"`, "", false},
		{"font/woff2", "", false},
		{"example/foo", "", false},
		{"haptics/ivs", "", false},
		{"x-world/x-vrml", "", true},
		{"applicaton/pdf", "", true},
		{"chemical/x-pdb", "", true},

		{"", `"" is not a media type: expected type/subtype`, false},
		{"pdf", `"pdf" is not a media type: expected type/subtype, e.g. text/html`, false},
		{"text/", "type and subtype must be 1-127 letters, digits and !#$&-^_.+ (RFC 6838)", false},
		{"/html", "type and subtype must be 1-127 letters", false},
		{"text/ html", "type and subtype must be 1-127 letters", false},
		{"text/ht ml", "type and subtype must be 1-127 letters", false},
		{"-text/html", "type and subtype must be 1-127 letters", false},
		{"text/.html", "type and subtype must be 1-127 letters", false},
		{"text/html/x", "type and subtype must be 1-127 letters", false},
		{"tëxt/html", "type and subtype must be 1-127 letters", false},
		{"a~/b", "type and subtype must be 1-127 letters", false},
		{"*/*", "type and subtype must be 1-127 letters", false},
		{strings.Repeat("a", 128) + "/b", "type and subtype must be 1-127 letters", false},
		{"text/html;charset", `media type "text/html;charset" has a malformed parameter "charset"; expected name=value`, false},
		{"text/html; =utf-8", `malformed parameter "=utf-8"`, false},
		{"text/html;", `malformed parameter ""`, false},
		{"text/html; char set=utf-8", `malformed parameter "char set=utf-8"`, false},
		{"text/html; charset=", `malformed parameter "charset="`, false},
	}
	for _, tt := range tests {
		problem, unknown := CheckMediaType(tt.in)
		switch {
		case tt.problem == "" && problem != "":
			t.Errorf("CheckMediaType(%q) = %q, want no problem", tt.in, problem)
		case tt.problem != "" && !strings.Contains(problem, tt.problem):
			t.Errorf("CheckMediaType(%q) = %q, want %q", tt.in, problem, tt.problem)
		case unknown != tt.unknownTop:
			t.Errorf("CheckMediaType(%q) unknown top-level = %v, want %v", tt.in, unknown, tt.unknownTop)
		}
	}
	if p, _ := CheckMediaType(strings.Repeat("a", 127) + "/" + strings.Repeat("b", 127)); p != "" {
		t.Errorf("127-character names: %s", p)
	}
}

func TestCheckURI(t *testing.T) {
	tests := []struct {
		in   string
		want URIProblem
		msg  string // substring
	}{
		{"http://example.com/res1", URIOK, ""},
		{"https://example.com/search?q=a&page=2#top", URIOK, ""},
		{"HTTP://EXAMPLE.COM:8080/res1", URIOK, ""},
		{"http://[2001:db8::1]/res1", URIOK, ""},
		{"http://example.com/res%201", URIOK, ""},
		{"http://user@example.com/~res;v=1", URIOK, ""},
		{"http://xn--exmple-cua.com/res1", URIOK, ""},

		{" http://example.com/res1", URIWhitespace, `" http://example.com/res1" has leading or trailing whitespace`},
		{"http://example.com/res1\n", URIWhitespace, "has leading or trailing whitespace"},

		{"", URIInvalid, "the URI is empty"},
		{"http://example.com/res 1", URIInvalid, "contains a space or control character; it must be percent-encoded (%20)"},
		{"http://example.com/res\t1", URIInvalid, "contains a space or control character"},
		{"http://example.com/res\x7f", URIInvalid, "contains a space or control character"},
		{"http://example.com/{res}", URIInvalid, "contains '{', which is not allowed in a URI and must be percent-encoded"},
		{"http://example.com/a|b", URIInvalid, "contains '|'"},
		{`http://example.com/a"b`, URIInvalid, `contains '"'`},
		{`http://example.com/a\b`, URIInvalid, `contains '\\'`},
		{"http://example.com/a^b", URIInvalid, "contains '^'"},
		{"http://example.com/a`b", URIInvalid, "contains '`'"},
		{"http://example.com/<b>", URIInvalid, "contains '<'"},
		{"http://example.com/res%zz", URIInvalid, `has a malformed percent-encoding at "%zz"`},
		{"http://example.com/res%4", URIInvalid, `has a malformed percent-encoding at "%4"`},
		{"http://example.com/res%", URIInvalid, `has a malformed percent-encoding at "%"`},
		{"http://example.com:80a/res", URIInvalid, "is not a valid URI: invalid port"},
		{"http://[::1/res", URIInvalid, "is not a valid URI"},
		{"http:example.com/res1", URIInvalid, `"http:example.com/res1" has no host`},
		{"http:///res1", URIInvalid, "has no host"},

		{"/res1", URIRelative, `"/res1" is a relative reference; an absolute URI is required`},
		{"res1.html", URIRelative, "is a relative reference"},
		{"example.com/res1", URIRelative, "is a relative reference"},
		{"//example.com/res1", URIRelative, "is a relative reference"},
		{"?page=2", URIRelative, "is a relative reference"},

		{"ftp://example.com/res1", URINotHTTP, `uses the "ftp" scheme; http or https is expected`},
		{"gsiftp://gridftp.example.com/res1", URINotHTTP, `uses the "gsiftp" scheme`},
		{"urn:isbn:0451450523", URINotHTTP, `uses the "urn" scheme`},
		{"mailto:info@example.com", URINotHTTP, `uses the "mailto" scheme`},
		{"file:///etc/passwd", URINotHTTP, `uses the "file" scheme`},

		{"http://example.com/café", URINonASCII, "contains non-ASCII characters; they should be percent-encoded as UTF-8"},
		{"http://example.com/?q=ü", URINonASCII, "contains non-ASCII characters"},
		{"http://exämple.com/res1", URINonASCII, `has a non-ASCII host name; it should be written in its ASCII form (IDNA, "xn--…")`},
	}
	for _, tt := range tests {
		got, msg := CheckURI(tt.in)
		if got != tt.want || !strings.Contains(msg, tt.msg) {
			t.Errorf("CheckURI(%q) = %d, %q; want %d, %q", tt.in, got, msg, tt.want, tt.msg)
		}
		if got == URIOK && msg != "" {
			t.Errorf("CheckURI(%q): message %q for a good URI", tt.in, msg)
		}
	}
}

func TestCheckRel(t *testing.T) {
	tests := []struct {
		in   string
		want RelProblem
		msg  string // substring
	}{
		{"up", RelOK, ""},
		{"index", RelOK, ""},
		{"describedby", RelOK, ""},
		{"describes", RelOK, ""},
		{"duplicate", RelOK, ""},
		{"alternate", RelOK, ""},
		{"canonical", RelOK, ""},
		{"contents", RelOK, ""},
		{"collection", RelOK, ""},
		{"memento", RelOK, ""},
		{"timegate", RelOK, ""},
		{"timemap", RelOK, ""},
		{"via", RelOK, ""},
		{"profile", RelOK, ""},
		{"hub", RelOK, ""},
		{"openid2.local_id", RelOK, ""},
		{RelPatch, RelOK, ""},
		{"http://example.org/rels/derived-from", RelOK, ""},
		{"urn:example:rel", RelOK, ""},
		{"tag:example.com,2013:rel", RelOK, ""},

		{"mirror", RelUnregistered, `rel "mirror" is not in the IANA Link Relations registry; use a registered type or a URI`},
		{"resourcesync", RelUnregistered, "is not in the IANA Link Relations registry"},
		{"my-rel.v2", RelUnregistered, "is not in the IANA Link Relations registry"},
		{"my_rel", RelUnregistered, "is not in the IANA Link Relations registry"},

		{"", RelInvalid, "rel is empty"},
		{" \t", RelInvalid, "rel is empty"},
		{"describedBy", RelInvalid, `rel "describedBy" must be written "describedby": registered relation types are lowercase`},
		{"Up", RelInvalid, `must be written "up"`},
		{"DUPLICATE", RelInvalid, `must be written "duplicate"`},
		{" up", RelInvalid, `rel " up" has surrounding whitespace; write "up"`},
		{"describedby\n", RelInvalid, `has surrounding whitespace; write "describedby"`},
		{"up describedby", RelInvalid, `rel "up describedby" holds several words; an rs:ln has exactly one relation type`},
		{" alternate representation ", RelInvalid, "holds several words"},
		{"my-rel!", RelInvalid, `rel "my-rel!" is neither a registered relation type (lowercase) nor an absolute URI`},
		{"1up", RelInvalid, "is neither a registered relation type"},
		{"Mirror", RelInvalid, "is neither a registered relation type"},
		{"rs/terms/patch", RelInvalid, "is neither a registered relation type"},
	}
	for _, tt := range tests {
		got, msg := CheckRel(tt.in)
		if got != tt.want || !strings.Contains(msg, tt.msg) || (got == RelOK) != (msg == "") {
			t.Errorf("CheckRel(%q) = %d, %q; want %d, %q", tt.in, got, msg, tt.want, tt.msg)
		}
	}
	for rel := range RegisteredRelations {
		if got, msg := CheckRel(rel); got != RelOK {
			t.Errorf("registered relation %q: %s", rel, msg)
		}
	}
}

func TestCheckPackagePath(t *testing.T) {
	tests := []struct{ in, msg string }{
		{"/resources/res1", ""},
		{"/a", ""},
		{"/changes/res7-v2.html", ""},
		{"/resources/..res2", ""},
		{"/résumé.pdf", ""},
		{"resources/res1", "must start with a slash"},
		{"", "must start with a slash"},
		{`/resources\res1`, "contains a backslash"},
		{"/a\x00b", "contains a NUL character"},
		{"/../etc/passwd", `has a ".." segment`},
		{"/resources/../../res2", `has a ".." segment`},
		{"/resources/..", `has a ".." segment`},
	}
	for _, tt := range tests {
		if got := checkPackagePath(tt.in); (tt.msg == "") != (got == "") || !strings.Contains(got, tt.msg) {
			t.Errorf("checkPackagePath(%q) = %q, want %q", tt.in, got, tt.msg)
		}
	}
}

// TestIsHexWords: the word-at-a-time path agrees with the byte loop on
// every byte value in every position.
func TestIsHexWords(t *testing.T) {
	slow := func(s string) bool {
		for i := 0; i < len(s); i++ {
			c := s[i]
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
		return s != ""
	}
	base := "0123456789abcdef0123456789abcdef"
	for c := 0; c < 256; c++ {
		for pos := 0; pos < len(base); pos++ {
			s := base[:pos] + string([]byte{byte(c)}) + base[pos+1:]
			if got, want := isHex(s), slow(s); got != want {
				t.Fatalf("isHex(%q) = %v, want %v", s, got, want)
			}
		}
	}
}
