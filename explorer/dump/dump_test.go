package dump_test

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/rscheck/rscheck/explorer/dump"
	"github.com/rscheck/rscheck/explorer/explorertest"
	"github.com/rscheck/rscheck/validator"
)

var (
	res1 = []byte("first bitstream\n")
	res2 = []byte("second bitstream, a little longer\n")
)

// manifest returns a Resource Dump Manifest describing res1 and res2 at
// the given paths, with the given length of res2.
func manifest(capability string, path1, path2 string, len2 int) []byte {
	return []byte(fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:ln rel="up" href="http://example.com/capabilitylist.xml"/>
  <rs:md capability="%s" at="2024-01-02T00:00:00Z"/>
  <url><loc>http://example.com/res1</loc><rs:md hash="%s" length="%d" type="text/plain" path="%s"/></url>
  <url><loc>http://example.com/res2</loc><rs:md hash="%s" length="%d" type="text/plain" path="%s"/></url>
</urlset>
`, capability, explorertest.Hash(res1), len(res1), path1, explorertest.Hash(res2), len2, path2))
}

func good() []explorertest.File {
	return []explorertest.File{
		{Name: "manifest.xml", Data: manifest("resourcedump-manifest", "/resources/res1", "/resources/res2", len(res2))},
		{Name: "resources/res1", Data: res1},
		{Name: "resources/res2", Data: res2},
	}
}

func check(t *testing.T, zip []byte, opts *dump.Options) *dump.Result {
	t.Helper()
	res, err := dump.Check(context.Background(), bytes.NewReader(zip), int64(len(zip)), opts)
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	return res
}

// rules returns "line:RULE" for every finding, sorted.
func rules(r *dump.Result) string {
	var out []string
	for _, f := range r.Report.Findings {
		out = append(out, fmt.Sprintf("%d:%s", f.Line, f.Rule))
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func TestCheck(t *testing.T) {
	g := good()
	tests := []struct {
		name  string
		files []explorertest.File
		opts  dump.Options
		want  string
	}{
		{"complete", g, dump.Options{Capability: "resourcedump"}, ""},
		{"no manifest", g[1:], dump.Options{}, "0:RD101"},
		{"manifest not at the top level", append([]explorertest.File{{Name: "dump/manifest.xml", Data: g[0].Data}}, g[1:]...), dump.Options{}, "0:RD101"},
		{"wrong manifest for the dump", append([]explorertest.File{{Name: "manifest.xml", Data: manifest("resourcedump-manifest", "/resources/res1", "/resources/res2", len(res2))}}, g[1:]...), dump.Options{Capability: "changedump"}, "4:RD102"},
		{"path not in the package", []explorertest.File{g[0], g[1]}, dump.Options{}, "6:RD103"},
		{"wrong length", append([]explorertest.File{{Name: "manifest.xml", Data: manifest("resourcedump-manifest", "/resources/res1", "/resources/res2", len(res2)+1)}}, g[1:]...), dump.Options{}, "6:RD104"},
		{"wrong bitstream", []explorertest.File{g[0], g[1], {Name: "resources/res2", Data: bytes.ToUpper(res2)}}, dump.Options{}, "6:RD105 6:RD105"},
		{"unlisted file", append(append([]explorertest.File(nil), g...), explorertest.File{Name: "resources/extra", Data: res1}), dump.Options{}, "0:RD106"},
		{"directories are not files", append(append([]explorertest.File(nil), g...), explorertest.File{Name: "resources/", Data: nil}), dump.Options{}, ""},
		{"path traversal", append(append([]explorertest.File(nil), g...), explorertest.File{Name: "../evil", Data: res1}), dump.Options{}, "0:RD106 0:RD110"},
		{"absolute name", append(append([]explorertest.File(nil), g...), explorertest.File{Name: "/etc/passwd", Data: res1}), dump.Options{}, "0:RD106 0:RD110"},
		{"backslash", append(append([]explorertest.File(nil), g...), explorertest.File{Name: `resources\res3`, Data: res1}), dump.Options{}, "0:RD106 0:RD110"},
		{"drive letter", append(append([]explorertest.File(nil), g...), explorertest.File{Name: `C:/boot.ini`, Data: res1}), dump.Options{}, "0:RD106 0:RD110"},
		{"duplicate name", append(append([]explorertest.File(nil), g...), explorertest.File{Name: "resources/res1", Data: res2}), dump.Options{}, "0:RD111"},
		{"declared size over the limit", []explorertest.File{g[0], g[1], {Name: "resources/res2", Data: make([]byte, 1<<20), Declared: 1 << 40}}, dump.Options{}, "6:RD112"},
		{"file longer than declared", []explorertest.File{g[0], g[1], {Name: "resources/res2", Data: make([]byte, 4<<20), Declared: uint64(len(res2))}}, dump.Options{}, "6:RD112"},
		{"decompressed bytes over the limit", g, dump.Options{MaxUncompressed: 770}, "6:RD112"},
		{"too many files", g, dump.Options{MaxFiles: 2}, "0:RD112"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := check(t, explorertest.Zip(tt.files...), &tt.opts)
			if got := rules(res); got != tt.want {
				t.Errorf("findings %q, want %q", got, tt.want)
				for _, f := range res.Report.Findings {
					t.Logf("  %s", f)
				}
			}
		})
	}
}

func TestCheckNotZip(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("not a zip at all"), explorertest.Zip(good()...)[:100]} {
		res := check(t, data, nil)
		if got := rules(res); got != "0:RD113" {
			t.Errorf("%q: findings %q, want RD113", data, got)
		}
	}
}

func TestCheckCancelled(t *testing.T) {
	zip := explorertest.Zip(good()...)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := dump.Check(ctx, bytes.NewReader(zip), int64(len(zip)), nil); err == nil {
		t.Error("Check with a cancelled context: nil error")
	}
}

func TestFingerprint(t *testing.T) {
	fp := func(doc []byte) *dump.Fingerprint {
		f := dump.NewFingerprint()
		if _, err := validator.Validate(context.Background(), bytes.NewReader(doc), &validator.Options{Observer: f}); err != nil {
			t.Fatal(err)
		}
		return f
	}
	a := manifest("resourcedump-manifest", "/r/1", "/r/2", 5)
	// Reformatted, same content: equal.
	b := bytes.ReplaceAll(a, []byte(`"/><`), []byte("\"/>\n   <"))
	b = bytes.ReplaceAll(b, []byte(`type="text/plain" path`), []byte(`path`))
	b = bytes.ReplaceAll(b, []byte(`hash=`), []byte(`type="text/plain" hash=`))
	if d := dump.Diff(fp(a), fp(b)); d != "" {
		t.Errorf("reformatted manifest differs: %s", d)
	}
	if d := dump.Diff(fp(a), fp(manifest("resourcedump-manifest", "/r/1", "/r/2", 6))); !strings.Contains(d, "entry 2") {
		t.Errorf("Diff = %q, want entry 2", d)
	}
	if d := dump.Diff(fp(a), fp(manifest("changedump-manifest", "/r/1", "/r/2", 5))); !strings.Contains(d, "capability") {
		t.Errorf("Diff = %q, want the rs:md", d)
	}
}

func TestRules(t *testing.T) {
	if err := validator.CheckRegistry(dump.Rules()); err != nil {
		t.Error(err)
	}
}

// Check reads a package from memory and reports what is wrong with it.
func ExampleCheck() {
	zip := explorertest.Zip(
		explorertest.File{Name: "manifest.xml", Data: manifest("resourcedump-manifest", "/resources/res1", "/resources/res2", len(res2))},
		explorertest.File{Name: "resources/res1", Data: res1},
		explorertest.File{Name: "../evil", Data: []byte("x")},
	)
	res, err := dump.Check(context.Background(), bytes.NewReader(zip), int64(len(zip)), &dump.Options{Name: "package.zip", Capability: "resourcedump"})
	if err != nil {
		panic(err)
	}
	for _, f := range res.Report.Findings {
		fmt.Printf("%s:%d %s %s\n", res.Report.Source, f.Line, f.Rule, f.Severity)
	}
	// Output:
	// package.zip:0 RD110 error
	// package.zip:0 RD106 warning
	// package.zip:6 RD103 error
}
