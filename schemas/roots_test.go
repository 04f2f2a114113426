package schemas

import (
	"io/fs"
	"reflect"
	"strings"
	"testing"
)

func TestRoots(t *testing.T) {
	tests := []struct {
		version string
		want    []string
	}{
		{"", []string{"sitemap.xsd", "resourcesync-1.1.xsd"}},
		{"1.1", []string{"sitemap.xsd", "resourcesync-1.1.xsd"}},
		{"1.0", []string{"sitemap.xsd", "resourcesync-1.0.xsd"}},
		{"0.9.1", []string{"sitemap.xsd", "resourcesync-0.9.1.xsd"}},
	}
	for _, tt := range tests {
		got, err := Roots(tt.version)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Roots(%q) = %q, %v; want %q", tt.version, got, err, tt.want)
		}
		for _, loc := range got {
			if _, err := fs.Stat(FS, loc); err != nil {
				t.Errorf("Roots(%q): %s is not embedded: %v", tt.version, loc, err)
			}
		}
	}
	for _, bad := range []string{"1", "1.2", "v1.1", "0.9", "1.1-2017"} {
		_, err := Roots(bad)
		if err == nil {
			t.Errorf("Roots(%q) succeeded, want an error", bad)
			continue
		}
		for _, v := range Versions() {
			if !strings.Contains(err.Error(), v) {
				t.Errorf("Roots(%q) error %q does not list version %s", bad, err, v)
			}
		}
	}
}

func TestVersions(t *testing.T) {
	v := Versions()
	if v[0] != DefaultVersion {
		t.Errorf("Versions()[0] = %q, want the default %q first", v[0], DefaultVersion)
	}
	v[0] = "changed"
	if Versions()[0] != DefaultVersion {
		t.Error("Versions returns its internal slice")
	}
}

// TestEmbeddedFiles checks that exactly the schemas the versions need are
// embedded, so that a stray file (a copy of an official schema, say) is
// noticed.
func TestEmbeddedFiles(t *testing.T) {
	files, err := fs.Glob(FS, "*")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{SitemapSchema: true}
	for _, v := range Versions() {
		roots, _ := Roots(v)
		for _, r := range roots {
			want[r] = true
		}
	}
	for _, f := range files {
		if !want[f] {
			t.Errorf("unexpected embedded file %s", f)
		}
		delete(want, f)
	}
	for f := range want {
		t.Errorf("missing embedded file %s", f)
	}
}
