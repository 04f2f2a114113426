package explorer

import (
	"net/url"
	"strings"
	"unicode/utf8"
)

// A Link is one link of an HTTP Link header (RFC 8288): a target, its
// relation types and its other parameters.
type Link struct {
	// Target is the link target resolved against the base URL, or as
	// written when it cannot be resolved.
	Target string
	// Rel lists the relation types of the first rel parameter, lower case.
	Rel []string
	// Anchor is the resolved anchor parameter (the link context when it is
	// not the resource itself), "" when absent.
	Anchor string
	// Params are the other parameters in order, with lower-case names;
	// values of extended parameters such as title* are decoded (RFC 8187).
	Params []LinkParam
}

// A LinkParam is one target attribute of a Link.
type LinkParam struct{ Name, Value string }

// HasRel reports whether rel (compared case-insensitively) is one of the
// link's relation types.
func (l *Link) HasRel(rel string) bool {
	for _, r := range l.Rel {
		if strings.EqualFold(r, rel) {
			return true
		}
	}
	return false
}

// LinkTargets returns the targets of the links that have relation type
// rel, in order.
func LinkTargets(links []Link, rel string) []string {
	var out []string
	for i := range links {
		if links[i].HasRel(rel) {
			out = append(out, links[i].Target)
		}
	}
	return out
}

// Param returns the value of the first parameter with the given name (case
// insensitive), or "".
func (l *Link) Param(name string) string {
	for _, p := range l.Params {
		if strings.EqualFold(p.Name, name) {
			return p.Value
		}
	}
	return ""
}

// ParseLinkHeader parses the values of the Link header fields of a
// response, following the algorithm of RFC 8288 Appendix B: several links
// per field and several fields, quoted and unquoted parameter values,
// quoted strings with escapes and with commas and semicolons inside,
// relation type lists, and targets resolved against base (the URL of the
// response; nil leaves them as written). Malformed links are skipped up to
// the next comma outside quotes and angle brackets; each is described in
// problems.
func ParseLinkHeader(base *url.URL, values []string) (links []Link, problems []string) {
	for _, v := range values {
		p := &linkParser{s: v}
		for {
			p.ows()
			for p.peek() == ',' { // empty list elements are allowed (RFC 9110 §5.6.1)
				p.i++
				p.ows()
			}
			if p.eof() {
				break
			}
			if p.peek() != '<' {
				problems = append(problems, "a link must start with <target>: "+quoteSnippet(p.s[p.i:]))
				p.skipElement()
				continue
			}
			p.i++
			end := strings.IndexByte(p.s[p.i:], '>')
			if end < 0 {
				problems = append(problems, "a link target has no closing >: "+quoteSnippet(p.s[p.i-1:]))
				break
			}
			target := strings.TrimSpace(p.s[p.i : p.i+end])
			p.i += end + 1
			params := p.params()
			links = append(links, makeLink(base, target, params))
			p.ows()
			if !p.eof() && p.peek() != ',' {
				problems = append(problems, "unexpected text after a link's parameters: "+quoteSnippet(p.s[p.i:]))
				p.skipElement()
			}
		}
	}
	return links, problems
}

func makeLink(base *url.URL, target string, params []LinkParam) Link {
	l := Link{Target: resolve(base, target)}
	relSeen, anchorSeen := false, false
	seen := map[string]bool{}
	for _, p := range params {
		switch p.Name {
		case "rel":
			// Occurrences after the first are ignored (RFC 8288 §3.3).
			if !relSeen {
				relSeen = true
				for _, r := range strings.Fields(p.Value) {
					l.Rel = append(l.Rel, strings.ToLower(r))
				}
			}
			continue
		case "anchor":
			if !anchorSeen {
				anchorSeen = true
				l.Anchor = resolve(base, p.Value)
			}
			continue
		case "media", "title", "title*", "type":
			if seen[p.Name] {
				continue
			}
		}
		seen[p.Name] = true
		l.Params = append(l.Params, p)
	}
	return l
}

func resolve(base *url.URL, ref string) string {
	if base == nil {
		return ref
	}
	u, err := base.Parse(ref)
	if err != nil {
		return ref
	}
	return u.String()
}

type linkParser struct {
	s string
	i int
}

func (p *linkParser) eof() bool { return p.i >= len(p.s) }

func (p *linkParser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.s[p.i]
}

// ows skips optional whitespace (spaces and tabs; obs-fold CRLFs too).
func (p *linkParser) ows() {
	for !p.eof() {
		switch p.s[p.i] {
		case ' ', '\t', '\r', '\n':
			p.i++
		default:
			return
		}
	}
}

// skipElement skips to the next comma that is outside quotes and angle
// brackets, to recover from a malformed link.
func (p *linkParser) skipElement() {
	inQuote, inAngle := false, false
	for ; !p.eof(); p.i++ {
		c := p.s[p.i]
		switch {
		case inQuote && c == '\\':
			p.i++
		case c == '"' && !inAngle:
			inQuote = !inQuote
		case c == '<' && !inQuote:
			inAngle = true
		case c == '>' && !inQuote:
			inAngle = false
		case c == ',' && !inQuote && !inAngle:
			return
		}
	}
}

// params parses link parameters (RFC 8288 Appendix B.3).
func (p *linkParser) params() []LinkParam {
	var out []LinkParam
	for {
		p.ows()
		if p.peek() != ';' {
			return out
		}
		p.i++
		p.ows()
		start := p.i
		for !p.eof() && !strings.ContainsRune(" \t=;,", rune(p.s[p.i])) {
			p.i++
		}
		name := strings.ToLower(p.s[start:p.i])
		p.ows()
		value := ""
		if p.peek() == '=' {
			p.i++
			p.ows()
			if p.peek() == '"' {
				value = p.quoted()
			} else {
				start := p.i
				for !p.eof() && p.s[p.i] != ';' && p.s[p.i] != ',' {
					p.i++
				}
				value = strings.TrimRight(p.s[start:p.i], " \t")
			}
			if strings.HasSuffix(name, "*") {
				if v, ok := decodeExtValue(value); ok {
					value = v
				}
			}
		}
		if name != "" {
			out = append(out, LinkParam{Name: name, Value: value})
		}
	}
}

// quoted parses a quoted string (RFC 8288 Appendix B.4); p is at the
// opening quote.
func (p *linkParser) quoted() string {
	var b strings.Builder
	p.i++
	for !p.eof() {
		c := p.s[p.i]
		p.i++
		switch c {
		case '\\':
			if p.eof() {
				return b.String()
			}
			b.WriteByte(p.s[p.i])
			p.i++
		case '"':
			return b.String()
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// decodeExtValue decodes an RFC 8187 ext-value: charset'language'value
// with percent-encoded octets; UTF-8 and ISO-8859-1 are supported.
func decodeExtValue(v string) (string, bool) {
	charset, rest, ok := strings.Cut(v, "'")
	if !ok {
		return "", false
	}
	_, enc, ok := strings.Cut(rest, "'")
	if !ok {
		return "", false
	}
	raw, err := url.PathUnescape(enc)
	if err != nil {
		return "", false
	}
	switch strings.ToLower(charset) {
	case "utf-8":
		if !utf8.ValidString(raw) {
			return "", false
		}
		return raw, true
	case "iso-8859-1":
		var b strings.Builder
		for i := 0; i < len(raw); i++ {
			b.WriteRune(rune(raw[i]))
		}
		return b.String(), true
	}
	return "", false
}

func quoteSnippet(s string) string {
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return "\"" + s + "\""
}
