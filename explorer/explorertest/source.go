// Package explorertest serves fixture ResourceSync Sources on 127.0.0.1 for
// the tests of the explorer, the command line and the browser: a complete
// Source whose exploration yields no error, its defective twin with one
// planted defect per cross-document check, a slow variant to test
// cancellation, and a large generated Source for memory and speed
// measurements.
//
// Expected findings are written in the served documents themselves, as
// XML comments on the line a finding must point at (the validator's test
// convention):
//
//	<rs:ln rel="up" href="…"/> <!-- want "RX101" -->
//
// and, for findings about a package as a whole, added to Source.Wants
// with line 0.
package explorertest

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Options choose the variant of a fixture Source.
type Options struct {
	// Defective plants one defect per cross-document check.
	Defective bool
	// AuditDefects make some resources differ from their metadata, for
	// the content audit: a wrong body, type, Last-Modified (in HTTP-date
	// and in W3C format), a missing resource and a deleted one that is
	// still there.
	AuditDefects bool
	// OtherDescription makes the site root's HTML link point to a
	// Capability List of another Source Description than the well-known
	// one, so that discovery methods disagree.
	OtherDescription bool
	// Slow delays every response by this much (the request's context
	// cancels the wait), to test cancellation and timeouts.
	Slow time.Duration
}

// A Want is a finding an exploration of the Source must report.
type Want struct {
	URL  string // document or package
	Line int    // 0 for the document as a whole
	Rule string
}

// String formats the want as "URL:line: RULE".
func (w Want) String() string { return fmt.Sprintf("%s:%d: %s", w.URL, w.Line, w.Rule) }

// A Source is a fixture Source served by an httptest.Server.
type Source struct {
	*httptest.Server
	// Base is the server's URL, without a trailing slash.
	Base string
	// Entry points for discovery.
	Root, WellKnown, RobotsTxt, HTMLPage, LinkHeaderResource, DeepResourceList string
	// Wants are the findings the exploration must report; for the
	// complete Source, none of severity error.
	Wants []Want

	opts       Options
	auditMarks map[int]string // want markers of resource entries, by resource number
	mu         sync.Mutex
	files      map[string]*file
	hits       map[string]int
}

type file struct {
	body     []byte
	ctype    string
	status   int
	header   http.Header
	location string
	lastmod  time.Time
}

// NewSource starts a fixture Source; it is closed when the test ends.
func NewSource(t testing.TB, opts *Options) *Source {
	t.Helper()
	s := Start(opts)
	t.Cleanup(s.Close)
	return s
}

// Start starts a fixture Source; the caller closes it.
func Start(opts *Options) *Source {
	s := &Source{files: map[string]*file{}, hits: map[string]int{}}
	if opts != nil {
		s.opts = *opts
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	s.Base = s.Server.URL
	s.Root = s.Base + "/"
	s.WellKnown = s.Base + "/.well-known/resourcesync"
	s.RobotsTxt = s.Base + "/robots.txt"
	s.HTMLPage = s.Base + "/index.html"
	s.LinkHeaderResource = s.Base + "/dataset1/res/res1"
	s.DeepResourceList = s.Base + "/dataset1/resourcelist-2.xml"
	s.build()
	return s
}

// Hits returns how many requests the server answered for a path.
func (s *Source) Hits(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

func (s *Source) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits[r.URL.Path]++
	f := s.files[r.URL.Path]
	s.mu.Unlock()
	if s.opts.Slow > 0 {
		t := time.NewTimer(s.opts.Slow)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	if f == nil {
		http.NotFound(w, r)
		return
	}
	for k, vs := range f.header {
		w.Header()[k] = vs
	}
	if f.location != "" {
		w.Header().Set("Location", f.location)
		w.WriteHeader(http.StatusFound)
		return
	}
	if f.ctype != "" {
		w.Header().Set("Content-Type", f.ctype)
	}
	if !f.lastmod.IsZero() {
		w.Header().Set("Last-Modified", f.lastmod.UTC().Format(http.TimeFormat))
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(f.body)))
	status := f.status
	if status == 0 {
		status = 200
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(f.body)
	}
}

// put serves body at path; XML documents' want comments become Wants.
func (s *Source) put(path, ctype string, body []byte) *file {
	f := &file{body: body, ctype: ctype}
	s.files[path] = f
	if strings.Contains(ctype, "xml") {
		s.wants(s.Base+path, body)
	}
	return f
}

func (s *Source) xml(path, body string) *file {
	return s.put(path, "application/xml", []byte(s.expand(body)))
}

// expand replaces {B} with the server's URL.
func (s *Source) expand(body string) string { return strings.ReplaceAll(body, "{B}", s.Base) }

var wantComment = regexp.MustCompile(`<!--\s*want(?:@(\d+))?((?:\s+"[^"]*")+)\s*-->`)
var wantItem = regexp.MustCompile(`"([^"]*)"`)

// wants records the want comments of a document served at url.
func (s *Source) wants(url string, body []byte) {
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for line := 1; sc.Scan(); line++ {
		for _, m := range wantComment.FindAllStringSubmatch(sc.Text(), -1) {
			at := line
			if m[1] != "" {
				at, _ = strconv.Atoi(m[1])
			}
			for _, item := range wantItem.FindAllStringSubmatch(m[2], -1) {
				s.Wants = append(s.Wants, Want{URL: url, Line: at, Rule: item[1]})
			}
		}
	}
}

func (s *Source) want(url string, line int, rules ...string) {
	for _, r := range rules {
		s.Wants = append(s.Wants, Want{URL: url, Line: line, Rule: r})
	}
}

func (s *Source) pickAudit(bad string) string {
	if s.opts.AuditDefects {
		return bad
	}
	return ""
}

// pick returns bad in the defective twin, good otherwise.
func (s *Source) pick(good, bad string) string {
	if s.opts.Defective {
		return bad
	}
	return good
}

const head = `<?xml version="1.0" encoding="UTF-8"?>
`
const urlset = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
`
const sitemapindex = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
`

// resource is a resource of the fixture and its metadata.
type resource struct {
	path    string
	body    []byte
	lastmod time.Time
}

func (r resource) entry(b string, marker string) string {
	return fmt.Sprintf("  <url><loc>%s%s</loc><lastmod>%s</lastmod><rs:md hash=\"%s\" length=\"%d\" type=\"text/plain\"/></url>%s\n",
		b, r.path, r.lastmod.Format(time.RFC3339), Hash(r.body), len(r.body), marker)
}

func day(d, h int) time.Time { return time.Date(2024, 1, d, h, 0, 0, 0, time.UTC) }

func w3c(t time.Time) string { return t.Format(time.RFC3339) }

func (s *Source) build() {
	b := s.Base
	var res1 []resource
	for i := 1; i <= 6; i++ {
		r := resource{path: fmt.Sprintf("/dataset1/res/res%d", i), body: []byte(fmt.Sprintf("This is resource %d of dataset 1.\n", i)), lastmod: day(1, i)}
		res1 = append(res1, r)
		f := s.put(r.path, "text/plain", r.body)
		f.lastmod = r.lastmod
	}
	auditMarks := map[int]string{}
	if s.opts.AuditDefects {
		auditMarks = map[int]string{2: ` <!-- want "RA105" -->`, 3: ` <!-- want "RA106" -->`, 4: ` <!-- want "RA103" "RA103" -->`, 5: ` <!-- want "RA104" -->`, 6: ` <!-- want "RA101" -->`}
		s.files["/dataset1/res/res2"].lastmod = day(1, 3)
		s.files["/dataset1/res/res3"].header = http.Header{"Last-Modified": {w3c(day(1, 3))}}
		s.files["/dataset1/res/res3"].lastmod = time.Time{}
		s.files["/dataset1/res/res4"].body = bytes.ToUpper(res1[3].body)
		s.files["/dataset1/res/res5"].ctype = "text/html"
		delete(s.files, "/dataset1/res/res6")
		s.put("/dataset1/res/res7", "text/plain", []byte("I was deleted.\n"))
	}
	s.auditMarks = auditMarks
	s.files["/dataset1/res/res1"].header = http.Header{"Link": {
		`<../capabilitylist.xml>; rel="resourcesync"; title="Dataset 1, a list; of things"`,
		`<{B}/about.html>; rel=describedby`,
	}}
	s.files["/dataset1/res/res1"].header["Link"][1] = s.expand(s.files["/dataset1/res/res1"].header["Link"][1])

	// Discovery: the well-known Source Description, robots.txt, an HTML page.
	s.xml("/.well-known/resourcesync", head+urlset+`  <rs:ln rel="describedby" href="{B}/about.html"/>
  <rs:md capability="description"/>
  <url><loc>{B}/dataset1/capabilitylist.xml</loc><rs:md capability="capabilitylist"/><rs:ln rel="describedby" href="{B}/dataset1/about.html"/></url>
  <url><loc>{B}/dataset2/capabilitylist.xml</loc><rs:md capability="capabilitylist"/><rs:ln rel="describedby" href="{B}/dataset2/about.html"/></url>
`+s.pick("", `  <url><loc>{B}/dataset3/capabilitylist.xml</loc><rs:md capability="capabilitylist"/><rs:ln rel="describedby" href="{B}/dataset3/about.html"/></url> <!-- want "RF104" -->
`)+`</urlset>
`)
	s.put("/robots.txt", "text/plain", []byte(s.expand("User-agent: *\nDisallow: /private/\n\nSitemap: {B}/dataset1/resourcelist-index.xml\nSitemap: {B}/dataset2/resourcelist.xml\n")))
	page := []byte(s.expand(`<!DOCTYPE html>
<html>
<head>
<title>Dataset 1</title>
<base href="{B}/dataset1/">
<link rel="stylesheet" href="/style.css">
<link rel="Alternate ResourceSync" href="capabilitylist.xml">
</head>
<body><p>Dataset 1.</p></body>
</html>
`))
	s.put("/", "text/html; charset=utf-8", page)
	if s.opts.OtherDescription {
		s.put("/", "text/html", []byte(s.expand(`<html><head><link rel="resourcesync" href="{B}/other/capabilitylist.xml"></head></html>`)))
		s.xml("/other/description.xml", head+urlset+`  <rs:ln rel="describedby" href="{B}/other/about.html"/>
  <rs:md capability="description"/>
  <url><loc>{B}/other/capabilitylist.xml</loc><rs:md capability="capabilitylist"/><rs:ln rel="describedby" href="{B}/other/about.html"/></url>
</urlset>
`)
		s.xml("/other/capabilitylist.xml", head+urlset+`  <rs:ln rel="up" href="{B}/other/description.xml"/> <!-- want "RX115" -->
  <rs:ln rel="describedby" href="{B}/other/about.html"/>
  <rs:md capability="capabilitylist"/>
  <url><loc>{B}/other/resourcelist.xml</loc><rs:md capability="resourcelist"/></url>
</urlset>
`)
		s.xml("/other/resourcelist.xml", head+urlset+`  <rs:ln rel="up" href="{B}/other/capabilitylist.xml"/>
  <rs:md capability="resourcelist" at="2024-01-02T00:00:00Z"/>
  <url><loc>{B}/dataset1/res/res1</loc></url>
</urlset>
`)
	}
	s.put("/index.html", "text/html; charset=utf-8", page)

	// A redirect loop (defective twin): dataset3's Capability List.
	if s.opts.Defective {
		s.files["/dataset3/capabilitylist.xml"] = &file{location: b + "/dataset3/loop"}
		s.files["/dataset3/loop"] = &file{location: b + "/dataset3/capabilitylist.xml"}
	}

	s.dataset1(res1)
	s.dataset2()
}

func (s *Source) dataset1(res []resource) {
	s.xml("/dataset1/capabilitylist.xml", head+urlset+`  <rs:ln rel="up" href="{B}/.well-known/resourcesync"/>
  <rs:ln rel="describedby" href="{B}/dataset1/about.html"/>
  <rs:md capability="capabilitylist"/>
  <url><loc>{B}/dataset1/resourcelist-index.xml</loc><rs:md capability="resourcelist"/></url>
  <url><loc>{B}/dataset1/changelist-index.xml</loc><rs:md capability="changelist"/></url>
  <url><loc>{B}/dataset1/resourcedump.xml</loc><rs:md capability="resourcedump"/></url>
  <url><loc>{B}/dataset1/changedump.xml</loc><rs:md capability="changedump"/></url>
  <url><loc>{B}/dataset1/notifications/change</loc><rs:md capability="change-notification"/><rs:ln rel="hub" href="{B}/hub"/></url>
  <url><loc>{B}/dataset1/notifications/framework</loc><rs:md capability="framework-notification"/><rs:ln rel="hub" href="{B}/hub"/></url>`+s.pick("", ` <!-- want "RX120" "RX120" -->`)+`
</urlset>
`)
	// Notification channels: topic URIs answering as WebSub topics.
	topicLinks := func(topic string) http.Header {
		return http.Header{"Link": {"<" + s.Base + topic + `>; rel="self"`, "<" + s.Base + `/hub>; rel="hub"`}}
	}
	f := s.put("/dataset1/notifications/change", "application/xml", []byte(head+urlset+`  <rs:md capability="change-notification" from="2024-01-03T00:00:00Z" until="2024-01-03T01:00:00Z"/>
  <url><loc>`+s.Base+`/dataset1/res/res3</loc><rs:md change="updated" datetime="2024-01-03T00:30:00Z"/></url>
</urlset>
`))
	f.header = topicLinks("/dataset1/notifications/change")
	if s.opts.Defective {
		f = s.put("/dataset1/notifications/framework", "text/html", []byte("<html><body>Subscribe!</body></html>"))
	} else {
		f = s.put("/dataset1/notifications/framework", "application/xml", nil)
	}
	f.header = topicLinks("/dataset1/notifications/framework")

	// Resource List Index of two Resource Lists.
	s.xml("/dataset1/resourcelist-index.xml", head+sitemapindex+`  <rs:ln rel="up" href="{B}/dataset1/capabilitylist.xml"/>
  <rs:md capability="resourcelist" at="2024-01-02T00:00:00Z" completed="2024-01-02T00:10:00Z"/>
  <sitemap><loc>{B}/dataset1/resourcelist-1.xml</loc><rs:md at="2024-01-02T00:00:00Z"/></sitemap>`+s.pick("", ` <!-- want "RX107" -->`)+`
  <sitemap><loc>{B}/dataset1/resourcelist-2.xml</loc><rs:md at="2024-01-02T00:05:00Z"/></sitemap>
</sitemapindex>
`)
	part := func(n int, at, indexLink string, rs []resource, extra string) string {
		var body strings.Builder
		body.WriteString(head + urlset + `  <rs:ln rel="up" href="{B}/dataset1/capabilitylist.xml"/>
` + indexLink + `  <rs:md capability="resourcelist" at="` + at + `"/>
`)
		for _, r := range rs {
			var k int
			fmt.Sscanf(r.path, "/dataset1/res/res%d", &k)
			body.WriteString(r.entry(s.Base, s.auditMarks[k]))
		}
		body.WriteString(extra + "</urlset>\n")
		return body.String()
	}
	idx := `  <rs:ln rel="index" href="{B}/dataset1/resourcelist-index.xml"/>
`
	s.xml("/dataset1/resourcelist-1.xml", part(1, s.pick("2024-01-02T00:00:00Z", "2024-01-02T00:05:00Z"), idx, res[:3], ""))
	s.xml("/dataset1/resourcelist-2.xml", part(2, "2024-01-02T00:05:00Z", s.pick(idx, "  <!-- want@0 \"RX103\" -->\n"), res[3:],
		s.pick("", strings.TrimSuffix(res[1].entry(s.Base, ""), "\n")+" <!-- want \"RX111\" -->\n")))

	// Change List Index: two closed Change Lists and an open one.
	s.xml("/dataset1/changelist-index.xml", head+sitemapindex+`  <rs:ln rel="up" href="{B}/dataset1/capabilitylist.xml"/>
  <rs:md capability="changelist" from="2024-01-01T00:00:00Z"/>
  <sitemap><loc>{B}/dataset1/changelist-1.xml</loc><rs:md from="2024-01-01T00:00:00Z" until="2024-01-02T00:00:00Z"/></sitemap>
  <sitemap><loc>{B}/dataset1/changelist-2.xml</loc>`+s.pick(`<rs:md from="2024-01-02T00:00:00Z" until="2024-01-03T00:00:00Z"/></sitemap>`,
		// The gap is only in the part's own times: the index entry gives
		// none, so only the explorer, reading the part, can see it.
		`</sitemap> <!-- want "RX110" "RS304" "RX108" -->`)+`
  <sitemap><loc>{B}/dataset1/changelist-3.xml</loc><rs:md from="2024-01-03T00:00:00Z"/></sitemap>`+s.pick("", ` <!-- want "RF102" -->`)+`
</sitemapindex>
`)
	changeList := func(n int, from, until string, entries string) string {
		u := ""
		if until != "" {
			u = ` until="` + until + `"`
		}
		return head + urlset + `  <rs:ln rel="up" href="{B}/dataset1/capabilitylist.xml"/>
  <rs:ln rel="index" href="{B}/dataset1/changelist-index.xml"/>
  <rs:md capability="changelist" from="` + from + `"` + u + `/>
` + entries + "</urlset>\n"
	}
	s.xml("/dataset1/changelist-1.xml", changeList(1, "2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z",
		`  <url><loc>{B}/dataset1/res/res1</loc><rs:md change="created" datetime="2024-01-01T01:00:00Z"/></url>
`))
	s.xml("/dataset1/changelist-2.xml", changeList(2, s.pick("2024-01-02T00:00:00Z", "2024-01-02T12:00:00Z"), "2024-01-03T00:00:00Z",
		`  <url><loc>{B}/dataset1/res/res2</loc><rs:md change="updated" datetime="2024-01-02T13:00:00Z"/></url>
`))
	f = s.xml("/dataset1/changelist-3.xml", changeList(3, "2024-01-03T00:00:00Z", "",
		`  <url><loc>{B}/dataset1/res/res3</loc><rs:md change="updated" datetime="2024-01-03T03:00:00Z"/></url>
  <url><loc>{B}/dataset1/res/res7</loc><rs:md change="deleted" datetime="2024-01-03T04:00:00Z"/></url>`+s.pickAudit(` <!-- want "RA101" -->`)+`
`))
	if s.opts.Defective {
		f.ctype = "text/plain; charset=utf-8"
	}

	s.resourceDump(res)
	s.changeDump()
}

// resourceDump serves a Resource Dump of one package with all resources.
func (s *Source) resourceDump(res []resource) {
	b := s.Base
	var man strings.Builder
	man.WriteString(head + urlset + `  <rs:ln rel="up" href="` + b + `/dataset1/capabilitylist.xml"/>
  <rs:md capability="resourcedump-manifest" at="2024-01-02T00:00:00Z"/>
`)
	files := []File{}
	for i, r := range res {
		body := r.body
		marker := ""
		if i == 2 && s.opts.Defective {
			// A stale copy of the same length: the package is right about
			// itself, but disagrees with the Resource List.
			body = bytes.ToUpper(body)
			marker = ` <!-- want "RX112" -->`
		}
		name := fmt.Sprintf("resources/res%d", i+1)
		files = append(files, File{Name: name, Data: body})
		fmt.Fprintf(&man, "  <url><loc>%s%s</loc><lastmod>%s</lastmod><rs:md hash=\"%s\" length=\"%d\" type=\"text/plain\" path=\"/%s\"/></url>%s\n",
			b, r.path, w3c(r.lastmod), Hash(body), len(body), name, marker)
	}
	man.WriteString("</urlset>\n")
	manifest := []byte(man.String())
	pkg := Zip(append([]File{{Name: "manifest.xml", Data: manifest}}, files...)...)
	s.put("/dataset1/rd-1.zip", "application/zip", pkg)
	s.wants(b+"/dataset1/rd-1.zip", manifest)
	s.put("/dataset1/rd-1-manifest.xml", "application/xml", bytes.ReplaceAll(manifest, []byte(`<!-- want "RX112" -->`), nil))
	s.xml("/dataset1/resourcedump.xml", head+urlset+`  <rs:ln rel="up" href="{B}/dataset1/capabilitylist.xml"/>
  <rs:md capability="resourcedump" at="2024-01-02T00:00:00Z"/>
  <url><loc>{B}/dataset1/rd-1.zip</loc><rs:md type="application/zip" length="`+strconv.Itoa(len(pkg))+`" at="2024-01-02T00:00:00Z" hash="md5:`+MD5(pkg)+`"/><rs:ln rel="contents" href="{B}/dataset1/rd-1-manifest.xml" type="application/xml"/></url>
</urlset>
`)
}

// changeDump serves a Change Dump; the defective twin adds one package
// per package defect.
func (s *Source) changeDump() {
	b := s.Base
	type pkg struct {
		name     string
		files    []File
		manifest string // entries
		contents string // "" for no contents link; "same" or "differ"
		length   int    // added to the real length in the dump entry
		marker   string // on the dump entry's line
		wants    []string
	}
	v1 := []byte("res1, version 2\n")
	v2 := []byte("res2, version 2\n")
	entry := func(loc, path string, data []byte, dt string, extra int, marker string) string {
		return fmt.Sprintf("  <url><loc>%s%s</loc><rs:md change=\"updated\" datetime=\"%s\" hash=\"%s\" length=\"%d\" type=\"text/plain\" path=\"%s\"/></url>%s\n",
			b, loc, dt, Hash(data), len(data)+extra, path, marker)
	}
	good := func(name string) pkg {
		return pkg{name: name, files: []File{{Name: "changes/res1-v2", Data: v1}, {Name: "changes/res2-v2", Data: v2}}}
	}
	pkgs := []pkg{good("cd-1")}
	pkgs[0].contents = "same"
	if s.opts.Defective {
		p := good("cd-nomanifest")
		p.manifest = "-"
		p.wants = []string{"RD101"}
		pkgs = append(pkgs, p)

		p = good("cd-badpath")
		p.files = p.files[:1]
		pkgs = append(pkgs, p)

		p = good("cd-badhash")
		p.files = []File{{Name: "changes/res1-v2", Data: v1}, {Name: "changes/res2-v2", Data: []byte("res2, version X\n")}}
		pkgs = append(pkgs, p)

		pkgs = append(pkgs, good("cd-badlength")) // its Manifest gives a wrong length

		p = good("cd-extra")
		p.files = append(p.files, File{Name: "changes/notes.txt", Data: []byte("not in the manifest\n")})
		p.wants = []string{"RD106"}
		pkgs = append(pkgs, p)

		p = good("cd-contents")
		p.contents = "differ"
		p.marker = ` <!-- want "RD107" -->`
		pkgs = append(pkgs, p)

		p = good("cd-entrylength")
		p.length = 10
		p.marker = ` <!-- want "RD108" -->`
		pkgs = append(pkgs, p)

		p = good("cd-evil")
		p.files = append(p.files, File{Name: "../evil", Data: []byte("outside\n")}, File{Name: "changes/res1-v2", Data: []byte("a duplicate\n")})
		p.wants = []string{"RD110", "RD111", "RD106"}
		pkgs = append(pkgs, p)

		p = good("cd-bomb")
		p.files = []File{
			{Name: "changes/res1-v2", Data: make([]byte, 1<<20), Declared: 10 << 30},
			{Name: "changes/res2-v2", Data: make([]byte, 8<<20), Declared: uint64(len(v2))},
		}
		pkgs = append(pkgs, p)
	}
	var dumpEntries strings.Builder
	for i, p := range pkgs {
		from, until := w3c(day(i+1, 0)), w3c(day(i+2, 0))
		url := b + "/dataset1/" + p.name + ".zip"
		m1, m2, extra := "", "", 0
		switch p.name {
		case "cd-badpath":
			m2 = ` <!-- want "RD103" -->`
		case "cd-badhash":
			m2 = ` <!-- want "RD105" "RD105" -->` // md5 and sha-256
		case "cd-badlength":
			m2, extra = ` <!-- want "RD104" -->`, 5
		case "cd-bomb":
			m1, m2 = ` <!-- want "RD112" -->`, ` <!-- want "RD112" -->`
		}
		man := head + urlset + `  <rs:ln rel="up" href="` + b + `/dataset1/capabilitylist.xml"/>
  <rs:md capability="changedump-manifest" from="` + from + `" until="` + until + `"/>
` + entry("/dataset1/res/res1", "/changes/res1-v2", v1, w3c(day(i+1, 1)), 0, m1) + entry("/dataset1/res/res2", "/changes/res2-v2", v2, w3c(day(i+1, 2)), extra, m2) + "</urlset>\n"
		files := p.files
		if p.manifest != "-" {
			files = append([]File{{Name: "manifest.xml", Data: []byte(man)}}, files...)
			s.wants(url, []byte(man))
		}
		for _, w := range p.wants {
			s.want(url, 0, w)
		}
		zip := Zip(files...)
		s.put("/dataset1/"+p.name+".zip", "application/zip", zip)
		ln := ""
		switch p.contents {
		case "same":
			s.put("/dataset1/"+p.name+"-manifest.xml", "application/xml", []byte(man))
			ln = `<rs:ln rel="contents" href="` + b + `/dataset1/` + p.name + `-manifest.xml" type="application/xml"/>`
		case "differ":
			other := strings.Replace(man, Hash(v2), Hash([]byte("res2, version 3\n")), 1)
			s.put("/dataset1/"+p.name+"-manifest.xml", "application/xml", []byte(other))
			ln = `<rs:ln rel="contents" href="` + b + `/dataset1/` + p.name + `-manifest.xml" type="application/xml"/>`
		}
		fmt.Fprintf(&dumpEntries, "  <url><loc>%s</loc><rs:md type=\"application/zip\" length=\"%d\" from=\"%s\" until=\"%s\"/>%s</url>%s\n",
			url, len(zip)+p.length, from, until, ln, p.marker)
	}
	s.xml("/dataset1/changedump.xml", head+urlset+`  <rs:ln rel="up" href="{B}/dataset1/capabilitylist.xml"/>
  <rs:md capability="changedump" from="2024-01-01T00:00:00Z"/>
`+dumpEntries.String()+"</urlset>\n")
}

func (s *Source) dataset2() {
	var entries strings.Builder
	for _, n := range []string{"a", "b"} {
		r := resource{path: "/dataset2/res/" + n, body: []byte("Dataset 2, resource " + n + ".\n"), lastmod: day(1, 12)}
		f := s.put(r.path, "text/plain", r.body)
		f.lastmod = r.lastmod
		entries.WriteString(r.entry(s.Base, ""))
	}
	cl := head + urlset + `  <rs:ln rel="up" href="{B}/.well-known/resourcesync"/>
  <rs:ln rel="describedby" href="{B}/dataset2/about.html"/>
  <rs:md capability="capabilitylist"/>
  <url><loc>{B}/dataset2/resourcelist.xml</loc><rs:md capability="resourcelist"/></url>
  <url><loc>{B}/dataset2/changelist.xml</loc><rs:md capability="changelist"/></url>
`
	if s.opts.Defective {
		cl += `  <url><loc>{B}/dataset2/mislabelled.xml</loc><rs:md capability="resourcedump"/></url> <!-- want "RX104" -->
  <url><loc>{B}/dataset2/changedump.xml</loc><rs:md capability="changedump"/></url> <!-- want "RF101" -->
`
	}
	s.xml("/dataset2/capabilitylist.xml", cl+"</urlset>\n")
	s.xml("/dataset2/resourcelist.xml", head+urlset+s.pick(`  <rs:ln rel="up" href="{B}/dataset2/capabilitylist.xml"/>
`, `  <rs:ln rel="up" href="{B}/dataset1/capabilitylist.xml"/> <!-- want "RX101" -->
`)+`  <rs:md capability="resourcelist" at="2024-01-02T00:00:00Z"/>
`+entries.String()+"</urlset>\n")
	if !s.opts.Defective {
		s.xml("/dataset2/changelist.xml", head+urlset+`  <rs:ln rel="up" href="{B}/dataset2/capabilitylist.xml"/>
  <rs:md capability="changelist" from="2024-01-01T00:00:00Z"/>
  <url><loc>{B}/dataset2/res/a</loc><rs:md change="created" datetime="2024-01-01T12:00:00Z"/></url>
</urlset>
`)
		return
	}
	// An index served as <urlset>: it lists Change Lists as if they were
	// resources.
	s.xml("/dataset2/changelist.xml", head+urlset+`  <rs:ln rel="up" href="{B}/dataset2/capabilitylist.xml"/>
  <rs:md capability="changelist" from="2024-01-01T00:00:00Z"/>
  <url><loc>{B}/dataset2/changelist-a.xml</loc><rs:md from="2024-01-01T00:00:00Z" until="2024-01-02T00:00:00Z"/></url> <!-- want "RX106" "RS303" "RS303" "RS312" -->
</urlset>
`)
	s.xml("/dataset2/changelist-a.xml", head+urlset+`  <rs:ln rel="up" href="{B}/dataset2/capabilitylist.xml"/>
  <rs:ln rel="index" href="{B}/dataset2/changelist.xml"/>
  <rs:md capability="changelist" from="2024-01-01T00:00:00Z" until="2024-01-02T00:00:00Z"/>
  <url><loc>{B}/dataset2/res/a</loc><rs:md change="created" datetime="2024-01-01T12:00:00Z"/></url>
</urlset>
`)
	s.xml("/dataset2/mislabelled.xml", head+urlset+`  <rs:ln rel="up" href="{B}/dataset2/capabilitylist.xml"/>
  <rs:md capability="resourcelist" at="2024-01-02T00:00:00Z"/>
  <url><loc>{B}/dataset2/res/c</loc></url>
</urlset>
`)
}
