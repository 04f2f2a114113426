package parity

// The parity corpus: every document the parity tests and the fuzz seeds
// use, generated deterministically from the specification's examples.
//
// Two mutation techniques are used on purpose:
//   - Values (attribute values, element text, prolog, line ends) are edited
//     at the byte level in the original text, so that multi-line start tags
//     keep their shape: libxml2 reports an attribute error on the line where
//     the start tag ends, and the engine must do the same.
//   - Structure (dropping, duplicating and moving elements, inserting
//     foreign elements, attributes, text and namespace changes) is edited
//     on an xmlquery tree and serialised by xmlquery. Raw markup that
//     xmlquery would escape (character references) is inserted through
//     placeholders replaced after serialisation.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// corpusDoc is one document of the parity corpus.
type corpusDoc struct {
	// Name is stable and unique, "<base>/<mutation>" for generated
	// documents, e.g. "ex14/url-md-length=-1".
	Name string
	// Category groups documents by how they were made, for summaries.
	Category string
	// Data is the document.
	Data []byte
}

// Corpus categories.
const (
	catSpec      = "spec"      // examples of the specifications, unmodified
	catXmllint   = "xmllint"   // the libxml2 experiments kept with the schemas
	catSynthetic = "synthetic" // our base documents, unmodified
	catValue     = "value"     // datatype edge values in attributes and text
	catStructure = "structure" // elements dropped, duplicated, moved
	catInsert    = "insert"    // foreign and misplaced elements inserted
	catAttr      = "attribute" // foreign, unknown and xsi: attributes added
	catNamespace = "namespace" // namespace URIs and prefixes changed
	catText      = "text"      // text, CDATA, comments, PIs where they do (not) belong
	catEmpty     = "empty"     // roots without entries
	catProlog    = "prolog"    // XML declaration, BOM, DOCTYPE, line ends, misc
	catWF        = "wf"        // well-formedness and namespace-well-formedness errors
	catLines     = "lines"     // line-number stress
	catRegress   = "regress"   // testdata/regress: every disagreement ever found
)

// Namespaces used by the generator.
const (
	nsSitemap = "http://www.sitemaps.org/schemas/sitemap/0.9"
	nsRS      = "http://www.openarchives.org/rs/terms/"
	nsXSI     = "http://www.w3.org/2001/XMLSchema-instance"
	nsXS      = "http://www.w3.org/2001/XMLSchema"
	nsExt     = "http://example.org/ext"
)

// referenceDir returns the directory of the official schemas,
// ../shared/reference/schemas relative to the repository root, and whether
// it exists.
func referenceDir() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
	ref := filepath.Join(filepath.Dir(dir), "shared", "reference", "schemas")
	if _, err := os.Stat(filepath.Join(ref, "sitemap.xsd")); err != nil {
		return ref, false
	}
	return ref, true
}

// requireReference skips the test when the official schemas and the
// specification examples are not next to the repository.
func requireReference(tb testing.TB) string {
	tb.Helper()
	ref, ok := referenceDir()
	if !ok {
		tb.Skipf("official schemas not found at %s (expected ../shared/reference/schemas from the repository root); parity tests need them", ref)
	}
	return ref
}

var (
	corpusOnce sync.Once
	corpusDocs []corpusDoc
	corpusErr  error
)

// loadCorpus returns the generated corpus followed by testdata/regress,
// building it once per test binary.
func loadCorpus(tb testing.TB) []corpusDoc {
	tb.Helper()
	ref := requireReference(tb)
	corpusOnce.Do(func() {
		corpusDocs, corpusErr = buildCorpus(filepath.Join(ref, "xmllint-tests"))
		if corpusErr != nil {
			return
		}
		var reg []corpusDoc
		reg, corpusErr = regressionDocs()
		corpusDocs = append(corpusDocs, reg...)
	})
	if corpusErr != nil {
		tb.Fatalf("building the corpus: %v", corpusErr)
	}
	return corpusDocs
}

// regressionDocs reads testdata/regress/*.xml, in name order.
func regressionDocs() ([]corpusDoc, error) {
	files, err := filepath.Glob(filepath.Join("testdata", "regress", "*.xml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var docs []corpusDoc
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		name := "regress/" + strings.TrimSuffix(filepath.Base(f), ".xml")
		docs = append(docs, corpusDoc{Name: name, Category: catRegress, Data: data})
	}
	return docs, nil
}

// corpusBuilder collects documents, enforcing unique names and dropping
// byte-identical duplicates (a mutation that changes nothing).
type corpusBuilder struct {
	docs  []corpusDoc
	names map[string]bool
	seen  map[string]bool
}

func newCorpusBuilder() *corpusBuilder {
	return &corpusBuilder{names: map[string]bool{}, seen: map[string]bool{}}
}

func (b *corpusBuilder) add(category, name string, data []byte) {
	if b.names[name] {
		panic("parity: duplicate corpus document name " + name)
	}
	b.names[name] = true
	if b.seen[string(data)] {
		return
	}
	b.seen[string(data)] = true
	b.docs = append(b.docs, corpusDoc{Name: name, Category: category, Data: data})
}

// baseDoc is a document mutations start from.
type baseDoc struct {
	name string
	data []byte
}

// buildCorpus generates the corpus from the experiments directory
// (reference/schemas/xmllint-tests).
func buildCorpus(xmllintDir string) ([]corpusDoc, error) {
	b := newCorpusBuilder()
	var bases []baseDoc // documents mutated by every generator
	byName := map[string][]byte{}

	read := func(sub, category, prefix string, mutate bool) error {
		files, err := filepath.Glob(filepath.Join(xmllintDir, sub, "*.xml"))
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return fmt.Errorf("no documents in %s", filepath.Join(xmllintDir, sub))
		}
		sort.Strings(files)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			stem := strings.TrimSuffix(filepath.Base(f), ".xml")
			b.add(category, prefix+"/"+stem, data)
			byName[stem] = data
			// The Table 2 skeletons contain "..." and are not documents
			// worth mutating.
			if mutate && !strings.HasPrefix(stem, "table2-") {
				bases = append(bases, baseDoc{stem, data})
			}
		}
		return nil
	}
	if err := read("spec-1.1-inline", catSpec, "spec", true); err != nil {
		return nil, err
	}
	if err := read("notification-1.0.1-inline", catSpec, "notification", true); err != nil {
		return nil, err
	}
	if err := read(".", catXmllint, "xmllint", false); err != nil {
		return nil, err
	}
	for _, s := range synthetic {
		b.add(catSynthetic, "synthetic/"+s.name, []byte(s.text))
		byName[s.name] = []byte(s.text)
		bases = append(bases, baseDoc{s.name, []byte(s.text)})
	}
	// The two good experiments are small, clean bases for structure.
	for _, n := range []string{"rl-good", "ri-good"} {
		bases = append(bases, baseDoc{n, byName[n]})
	}

	genSyntheticValues(b, byName)
	for _, base := range bases {
		if !isSynthetic(base.name) {
			genExampleValues(b, base)
		}
	}
	for _, base := range bases {
		genStructure(b, base)
	}
	// The heavier generators run on a handful of bases that between them
	// have every kind of document: both roots, document-level and entry
	// level rs:md and rs:ln, lastmod, changefreq and priority.
	for _, n := range richBases {
		base := baseDoc{n, byName[n]}
		if base.data == nil {
			return nil, fmt.Errorf("rich base %s missing", n)
		}
		genInsertions(b, base)
		genAttributes(b, base)
		genNamespaces(b, base)
		genText(b, base)
		genEmpty(b, base)
	}
	for _, n := range []string{"ex14", "ex08", "urlset-full"} {
		genProlog(b, baseDoc{n, byName[n]})
	}
	genWellFormedness(b, byName["urlset-full"])
	genLines(b, byName["urlset-full"])
	return b.docs, nil
}

func isSynthetic(name string) bool {
	for _, s := range synthetic {
		if s.name == name {
			return true
		}
	}
	return false
}

// richBases are the bases the heavier generators use.
var richBases = []string{"ex01", "ex08", "ex14", "ex19", "ex24", "notification_ex1", "urlset-full", "sitemapindex-full"}

// synthetic are base documents written for the corpus: they use nearly
// every element and attribute of the schemas, with start tags spread over
// lines as the specification's examples do. They are valid under every
// version (no datetime, no profile: the value generators add those), so
// that a mutation's verdict depends on the mutation alone.
var synthetic = []struct{ name, text string }{
	{"urlset-full", `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:ln rel="up"
         href="http://example.com/dataset1/capabilitylist.xml"/>
  <rs:md capability="changedump-manifest"
         from="2013-01-02T00:00:00Z"
         until="2013-01-03T00:00:00Z"/>
  <url>
      <loc>http://example.com/res1</loc>
      <lastmod>2013-01-02T13:00:00Z</lastmod>
      <changefreq>daily</changefreq>
      <priority>0.5</priority>
      <rs:md change="updated"
             hash="md5:1584abdf8ebdc9802ac0c6a7402c03b6"
             length="8876"
             type="text/html"
             path="/changes/res1"/>
      <rs:ln rel="duplicate"
             href="http://mirror.example.com/res1"
             modified="2013-01-02T13:00:00Z"
             hash="md5:1584abdf8ebdc9802ac0c6a7402c03b6"
             length="8876"
             type="text/html"
             pri="1"/>
  </url>
  <url>
      <loc>http://example.com/res2</loc>
      <rs:md change="deleted"
             length="0"/>
  </url>
</urlset>
`},
	{"sitemapindex-full", `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
              xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:ln rel="up"
         href="http://example.com/dataset1/capabilitylist.xml"/>
  <rs:md capability="resourcelist"
         at="2013-01-03T09:00:00Z"
         completed="2013-01-03T09:10:00Z"/>
  <sitemap>
      <loc>http://example.com/resourcelist-part1.xml</loc>
      <lastmod>2013-01-03T09:00:00Z</lastmod>
      <rs:md at="2013-01-03T09:00:00Z"
             completed="2013-01-03T09:05:00Z"/>
      <rs:ln rel="alternate"
             href="http://mirror.example.com/resourcelist-part1.xml"/>
  </sitemap>
  <sitemap>
      <loc>http://example.com/resourcelist-part2.xml</loc>
  </sitemap>
</sitemapindex>
`},
}

// TestCorpus checks the generator: enough documents, unique names,
// determinism, every category present.
func TestCorpus(t *testing.T) {
	ref := requireReference(t)
	docs := loadCorpus(t)
	again, err := buildCorpus(filepath.Join(ref, "xmllint-tests"))
	if err != nil {
		t.Fatal(err)
	}
	generated := 0
	counts := map[string]int{}
	names := map[string]bool{}
	for _, d := range docs {
		if names[d.Name] {
			t.Errorf("duplicate name %s", d.Name)
		}
		names[d.Name] = true
		counts[d.Category]++
		if d.Category != catRegress {
			generated++
		}
	}
	if generated != len(again) {
		t.Fatalf("corpus not deterministic: %d then %d documents", generated, len(again))
	}
	for i := range again {
		if again[i].Name != docs[i].Name || !bytes.Equal(again[i].Data, docs[i].Data) {
			t.Fatalf("corpus not deterministic at %d: %s vs %s", i, docs[i].Name, again[i].Name)
		}
	}
	if generated < 2000 {
		t.Errorf("corpus has %d generated documents, want at least 2000", generated)
	}
	for _, c := range []string{catSpec, catXmllint, catSynthetic, catValue, catStructure, catInsert, catAttr, catNamespace, catText, catEmpty, catProlog, catWF, catLines} {
		if counts[c] == 0 {
			t.Errorf("no documents in category %s", c)
		}
	}
	t.Logf("corpus: %d documents (%d generated); by category: %v", len(docs), generated, counts)

	// PARITY_DUMP_CORPUS=dir writes every document to dir, for inspection
	// or for other tools.
	if dir := os.Getenv("PARITY_DUMP_CORPUS"); dir != "" {
		for _, d := range docs {
			if err := writeDoc(dir, d); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("corpus written to %s", dir)
	}
}

// fileName maps a document name to a file name that is safe everywhere
// and still unique.
func fileName(name string) string {
	var sb strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.', r == '=', r == '@', r == '+':
			sb.WriteRune(r)
		default:
			sb.WriteByte('_')
		}
	}
	s := sb.String()
	if len(s) > 100 {
		s = s[:100]
	}
	sum := sha256.Sum256([]byte(name))
	return s + "~" + hex.EncodeToString(sum[:3]) + ".xml"
}

// writeDoc writes a corpus document under dir.
func writeDoc(dir string, d corpusDoc) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, fileName(d.Name)), d.Data, 0o644)
}
