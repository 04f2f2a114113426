package dump

import (
	"archive/zip"
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/rscheck/rscheck/validator"
)

// ManifestName is the name of the Manifest in a package (§11.2, §13.2).
const ManifestName = "manifest.xml"

// Defaults of Options.
const (
	DefaultMaxFiles        = 100_000
	DefaultMaxUncompressed = 4 << 30
)

// Options configure Check. The zero value checks a package of unknown
// dump with the default limits.
type Options struct {
	// Name names the package in the report (a URL or a file name).
	Name string
	// Capability is the capability of the dump listing the package,
	// "resourcedump" or "changedump"; "" when unknown (a file given by the
	// user), and then either kind of Manifest is accepted.
	Capability string
	// MaxFiles bounds the number of files in the package; zero means
	// DefaultMaxFiles.
	MaxFiles int
	// MaxUncompressed bounds the bytes decompressed from the package, all
	// files together; zero means DefaultMaxUncompressed.
	MaxUncompressed int64
	// Validator is the template of the options the Manifest is validated
	// with; nil means the defaults. Its Observer is called too.
	Validator *validator.Options
	// Observer, if set, also sees the Manifest's document model (for
	// facts across packages, such as the resources a dump contains).
	Observer validator.Observer
}

// A Result is what Check found in a package.
type Result struct {
	// Report is the Manifest's validation report with the package's
	// findings merged in. Findings about the package as a whole (ZIP
	// structure, files the Manifest does not list) have line 0; the others
	// point into manifest.xml.
	Report *validator.Report
	// Manifest is the fingerprint of the packaged Manifest, nil when the
	// package has none, to compare with the copy a contents link gives.
	Manifest *Fingerprint
	// Files is the number of files in the ZIP (directories excluded).
	Files int
	// Uncompressed is the number of bytes decompressed.
	Uncompressed int64
}

// Check reads a dump package, a ZIP file of size bytes, from r: it finds and
// validates the Manifest and checks each bitstream the Manifest describes
// against the file in the package (presence, length, digests), and the ZIP
// itself (unsafe and duplicate names, unlisted files, limits against ZIP
// bombs, corruption). Nothing is written to disk. The error is non-nil only
// when ctx is cancelled or r fails; problems of the package are findings.
func Check(ctx context.Context, r io.ReaderAt, size int64, opts *Options) (*Result, error) {
	if opts == nil {
		opts = &Options{}
	}
	c := &checker{ctx: ctx, opts: opts, maxFiles: opts.MaxFiles, budget: opts.MaxUncompressed}
	if c.maxFiles <= 0 {
		c.maxFiles = DefaultMaxFiles
	}
	if c.budget <= 0 {
		c.budget = DefaultMaxUncompressed
	}
	c.limit = c.budget
	res := &Result{Report: &validator.Report{Source: opts.Name, Kind: validator.Unknown, Findings: []validator.Finding{}}}
	c.res = res
	err := c.run(r, size)
	maxPer := 0
	if opts.Validator != nil {
		maxPer = opts.Validator.MaxFindingsPerRule
	}
	res.Report.Add(maxPer, c.findings...)
	res.Uncompressed = c.limit - c.budget
	return res, err
}

type checker struct {
	ctx      context.Context
	opts     *Options
	res      *Result
	maxFiles int
	limit    int64
	budget   int64 // bytes that may still be decompressed
	findings []validator.Finding
}

func (c *checker) report(r *validator.Rule, line, col int, path, format string, args ...any) {
	c.findings = append(c.findings, r.Finding(line, col, path, format, args...))
}

func (c *checker) run(r io.ReaderAt, size int64) error {
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		c.report(RuleZipCorrupt, 0, 0, "", "the package is not a readable ZIP file: %v", err)
		return nil
	}
	files := map[string]*zip.File{}
	dups := map[string]bool{}
	n := 0
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") {
			continue // a directory entry
		}
		n++
		if n > c.maxFiles {
			c.report(RuleZipLimits, 0, 0, "", "the package holds more than %d files, the limit; it was not read further", c.maxFiles)
			return nil
		}
		if msg := unsafeName(f.Name); msg != "" {
			c.report(RuleUnsafePath, 0, 0, "", "file %q in the package %s; a Destination unpacking it could write outside its directory", f.Name, msg)
		}
		if _, ok := files[f.Name]; ok {
			if !dups[f.Name] {
				c.report(RuleDuplicateName, 0, 0, "", "the package holds more than one file named %q; which bitstream is at that path is ambiguous (the first is checked)", f.Name)
			}
			dups[f.Name] = true
			continue
		}
		files[f.Name] = f
	}
	c.res.Files = n
	mf := files[ManifestName]
	if mf == nil {
		var elsewhere []string
		for name := range files {
			if path.Base(name) == ManifestName || strings.EqualFold(name, ManifestName) {
				elsewhere = append(elsewhere, name)
			}
		}
		if len(elsewhere) > 0 {
			c.report(RuleManifestMissing, 0, 0, "", "the package has no manifest.xml at its top level (found %s); the Manifest must be named manifest.xml and be at the top level of the ZIP", strings.Join(elsewhere, ", "))
		} else {
			c.report(RuleManifestMissing, 0, 0, "", "the package has no manifest.xml; a dump package must contain its Manifest as manifest.xml at the top level of the ZIP")
		}
		return c.ctx.Err()
	}
	entries, ok, err := c.manifest(mf)
	if err != nil || !ok {
		return err // without a Manifest, nothing more can be said of the files
	}
	listed := map[string]bool{ManifestName: true}
	for i := range entries {
		if err := c.ctx.Err(); err != nil {
			return err
		}
		e := &entries[i]
		name := strings.TrimPrefix(e.path, "/")
		listed[name] = true
		f := files[name]
		if f == nil {
			c.report(RulePathMissing, e.pathPos.line, e.pathPos.col, e.pathPos.path, "path %q names no file of the package; the bitstream of %s is missing", e.path, e.loc)
			continue
		}
		if err := c.bitstream(f, e); err != nil {
			return err
		}
	}
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") || listed[f.Name] {
			continue
		}
		listed[f.Name] = true // report duplicates once
		c.report(RuleUnlistedFile, 0, 0, "", "file %q of the package is not described by the Manifest (no entry has path=%q)", f.Name, "/"+f.Name)
	}
	return nil
}

// unsafeName says what makes a ZIP file name unsafe to unpack, or "".
func unsafeName(name string) string {
	switch {
	case strings.ContainsRune(name, 0):
		return "contains a NUL character"
	case strings.Contains(name, `\`):
		return "contains a backslash, a directory separator on Windows"
	case strings.HasPrefix(name, "/"):
		return "is an absolute path"
	case len(name) >= 2 && name[1] == ':' && (name[0]|0x20 >= 'a' && name[0]|0x20 <= 'z'):
		return "starts with a drive letter"
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == ".." {
			return "has a \"..\" segment, leading out of the package"
		}
	}
	return ""
}

// pos locates a finding in manifest.xml.
type pos struct {
	line, col int
	path      string
}

func attrPos(el *validator.Element, name string) pos {
	if a := el.Attr(name); a != nil {
		return pos{a.Pos.Line, a.Pos.Col, el.AttrPath(a)}
	}
	return pos{el.Pos.Line, el.Pos.Col, el.Path()}
}

// entry is what the bitstream checks need of a Manifest entry.
type entry struct {
	loc                         string
	path                        string
	pathPos, hashPos, lengthPos pos
	hash                        string
	length                      string
}

// collector gathers the Manifest's entries with a path, and its kind.
type collector struct {
	doc     *validator.Doc
	entries []entry
}

func (c *collector) Header(d *validator.Doc) { c.doc = d }

func (c *collector) Entry(e *validator.Entry) {
	md := e.MD
	if md == nil || !md.Has("path") {
		return
	}
	c.entries = append(c.entries, entry{
		loc:       e.LocText(),
		path:      strings.TrimSpace(md.Value("path")),
		pathPos:   attrPos(md, "path"),
		hashPos:   attrPos(md, "hash"),
		lengthPos: attrPos(md, "length"),
		hash:      md.Value("hash"),
		length:    strings.TrimSpace(md.Value("length")),
	})
}

func (c *collector) End(validator.Stats) {}

// manifest validates manifest.xml and returns its entries with a path,
// and whether it could be read.
func (c *checker) manifest(f *zip.File) ([]entry, bool, error) {
	var vo validator.Options
	if c.opts.Validator != nil {
		vo = *c.opts.Validator
	}
	col := &collector{}
	fp := NewFingerprint()
	vo.Observer = validator.Observers(col, fp, vo.Observer, c.opts.Observer)
	if vo.MaxBytes <= 0 || vo.MaxBytes > c.budget {
		vo.MaxBytes = c.budget
	}
	rc, err := c.open(f)
	if err != nil {
		var le *limitError
		if errors.As(err, &le) {
			c.report(RuleZipLimits, 0, 0, "", "manifest.xml was not read: %s", le.msg)
		} else {
			c.report(RuleZipCorrupt, 0, 0, "", "manifest.xml cannot be read: %v", err)
		}
		return nil, false, nil
	}
	cr := &countReader{r: rc}
	rep, err := validator.Validate(c.ctx, cr, &vo)
	rc.Close()
	c.budget -= cr.n
	if err != nil {
		if c.ctx.Err() != nil {
			return nil, false, c.ctx.Err()
		}
		if errors.Is(err, errLonger) {
			c.report(RuleZipLimits, 0, 0, "", "manifest.xml is larger than the %d bytes its ZIP header declares; reading stopped there", f.UncompressedSize64)
		} else {
			c.report(RuleZipCorrupt, 0, 0, "", "manifest.xml cannot be read: %v", err)
		}
		return nil, false, nil
	}
	rep.Source = c.opts.Name
	c.res.Report = rep
	c.res.Manifest = fp
	d := col.doc
	if d == nil {
		return col.entries, true, nil
	}
	want := map[string]validator.Kind{"resourcedump": validator.ResourceDumpManifest, "changedump": validator.ChangeDumpManifest}[c.opts.Capability]
	var el *validator.Element
	if d.MD != nil {
		el = d.MD
	}
	switch {
	case want != "" && d.Kind != want:
		c.reportAt(RuleManifestCapability, el, "capability", "the package is listed by a %s, so its manifest.xml must be a %s (capability=%q), not %s", capName(c.opts.Capability), capName(string(want)), want, kindName(d))
	case want == "" && d.Kind != validator.ResourceDumpManifest && d.Kind != validator.ChangeDumpManifest:
		c.reportAt(RuleManifestCapability, el, "capability", "manifest.xml must be a Resource Dump Manifest (capability=\"resourcedump-manifest\") or a Change Dump Manifest (capability=\"changedump-manifest\"), not %s", kindName(d))
	}
	return col.entries, true, nil
}

func (c *checker) reportAt(r *validator.Rule, el *validator.Element, attr, format string, args ...any) {
	if el == nil {
		c.report(r, 0, 0, "", format, args...)
		return
	}
	p := attrPos(el, attr)
	c.report(r, p.line, p.col, p.path, format, args...)
}

func capName(c string) string {
	if cp := validator.Capabilities[c]; cp != nil {
		return cp.Name
	}
	return c
}

func kindName(d *validator.Doc) string {
	switch {
	case d.Cap != nil:
		return "a " + d.Cap.Name + fmt.Sprintf(" (capability=%q)", d.Capability)
	case d.Capability != "":
		return fmt.Sprintf("a document with capability=%q", d.Capability)
	}
	return "a document of kind " + string(d.Kind)
}

// open opens a file of the package, refusing one whose declared size is
// beyond what may still be decompressed.
func (c *checker) open(f *zip.File) (io.ReadCloser, error) {
	if int64(f.UncompressedSize64) > c.budget || f.UncompressedSize64 > 1<<62 {
		return nil, &limitError{fmt.Sprintf("it declares %d bytes uncompressed, more than the %d bytes that may still be decompressed (limit %d for the package)", f.UncompressedSize64, max(c.budget, 0), c.limit)}
	}
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	// Stop one byte past the declared size: archive/zip reports a longer
	// file as an error, and this bounds the work even if it did not.
	return struct {
		io.Reader
		io.Closer
	}{&declaredReader{r: rc, declared: int64(f.UncompressedSize64)}, rc}, nil
}

type limitError struct{ msg string }

func (e *limitError) Error() string { return e.msg }

// declaredReader stops after a file's declared size (plus one byte, to
// tell that it is longer).
type declaredReader struct {
	r              io.Reader
	declared, read int64
}

func (d *declaredReader) Read(p []byte) (int, error) {
	left := d.declared + 1 - d.read
	if left <= 0 {
		return 0, errLonger
	}
	if int64(len(p)) > left {
		p = p[:left]
	}
	n, err := d.r.Read(p)
	d.read += int64(n)
	switch {
	case d.read > d.declared:
		return n, errLonger
	case errors.Is(err, zip.ErrFormat) && d.read+int64(len(p)) > d.declared:
		// archive/zip fails with ErrFormat when a file goes past its
		// declared size: say what happened.
		return n, errLonger
	}
	return n, err
}

var errLonger = errors.New("the file is larger than the size its ZIP header declares")

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// hashers are the digests Check can verify.
var hashers = map[string]func() hash.Hash{
	"md5": md5.New, "sha-1": sha1.New, "sha-224": sha256.New224, "sha-256": sha256.New,
	"sha-384": sha512.New384, "sha-512": sha512.New,
}

// bitstream reads one file of the package and compares it with its entry.
func (c *checker) bitstream(f *zip.File, e *entry) error {
	digests, _ := validator.ParseHash(e.hash)
	if strings.TrimSpace(e.hash) == "" {
		digests = nil
	}
	var ws []io.Writer
	hs := map[string]hash.Hash{}
	for _, d := range digests {
		if mk := hashers[d.Alg]; mk != nil && hs[d.Alg] == nil {
			h := mk()
			hs[d.Alg] = h
			ws = append(ws, h)
		}
	}
	rc, err := c.open(f)
	if err != nil {
		var le *limitError
		if errors.As(err, &le) {
			c.report(RuleZipLimits, e.pathPos.line, e.pathPos.col, e.pathPos.path, "file %q was not read: %s", f.Name, le.msg)
		} else {
			c.report(RuleZipCorrupt, e.pathPos.line, e.pathPos.col, e.pathPos.path, "file %q cannot be read: %v", f.Name, err)
		}
		return nil
	}
	defer rc.Close()
	n, err := copyCtx(c.ctx, io.MultiWriter(append(ws, io.Discard)...), rc)
	c.budget -= n
	if err != nil {
		switch {
		case c.ctx.Err() != nil:
			return c.ctx.Err()
		case errors.Is(err, errLonger):
			c.report(RuleZipLimits, e.pathPos.line, e.pathPos.col, e.pathPos.path, "file %q is larger than the %d bytes its ZIP header declares; reading stopped there (a ZIP bomb or a corrupt package)", f.Name, f.UncompressedSize64)
		default:
			c.report(RuleZipCorrupt, e.pathPos.line, e.pathPos.col, e.pathPos.path, "file %q cannot be decompressed: %v", f.Name, err)
		}
		return nil
	}
	if e.length != "" {
		if want, err := strconv.ParseInt(e.length, 10, 64); err == nil && want != n {
			c.report(RuleBitstreamLength, e.lengthPos.line, e.lengthPos.col, e.lengthPos.path, "length is %d but file %q in the package has %d bytes", want, f.Name, n)
		}
	}
	for _, d := range digests {
		h := hs[d.Alg]
		if h == nil {
			continue
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != strings.ToLower(d.Hex) {
			c.report(RuleBitstreamHash, e.hashPos.line, e.hashPos.col, e.hashPos.path, "%s digest is %s but file %q in the package has %s:%s", d.Alg, d.Hex, f.Name, d.Alg, got)
		}
	}
	return nil
}

// copyCtx copies src to dst, checking ctx between chunks.
func copyCtx(ctx context.Context, dst io.Writer, src io.Reader) (int64, error) {
	buf := make([]byte, 32<<10)
	var n int64
	for {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		m, err := src.Read(buf)
		if m > 0 {
			dst.Write(buf[:m])
			n += int64(m)
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}
