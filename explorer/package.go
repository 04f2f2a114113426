package explorer

import (
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"net/url"
	"os"

	"github.com/rscheck/rscheck/explorer/dump"
	"github.com/rscheck/rscheck/validator"
)

// memoryPackage is the size up to which a package is kept in memory; a
// larger one goes to a temporary file where the platform has one (not in
// a browser), and is never extracted.
const memoryPackage = 32 << 20

var hashers = map[string]func() hash.Hash{
	"md5": md5.New, "sha-1": sha1.New, "sha-224": sha256.New224, "sha-256": sha256.New,
	"sha-384": sha512.New384, "sha-512": sha512.New,
}

// fetchPackage downloads a dump package, computing the digests its dump
// entry lists, and checks it with dump.Check.
func (c *crawler) fetchPackage(d *Document) {
	defer func() { d.done = true }()
	if c.ctx.Err() != nil {
		d.fail, d.err = failStopped, c.ctx.Err()
		return
	}
	d.Kind = KindPackage
	c.progress(func(p *Progress) { p.URL = d.URL })
	resp, err := c.f.Fetch(c.ctx, &Request{URL: d.URL})
	if err != nil {
		c.failed(d, err)
		return
	}
	defer resp.Body.Close()
	c.response(d, resp)
	c.progress(func(p *Progress) { p.Fetched++; p.URL = d.URL })
	if resp.StatusCode != 200 {
		d.fail, d.Error = failStatus, statusText(resp.StatusCode)
		return
	}
	if resp.ContentLength > c.o.MaxPackageBytes {
		d.fail, d.Error = failTooLarge, fmt.Sprintf("the package is larger than %d bytes, the limit (Options.MaxPackageBytes)", c.o.MaxPackageBytes)
		return
	}
	r := d.refs[0]
	digests, _ := validator.ParseHash(r.hash)
	hs := map[string]hash.Hash{}
	var ws []io.Writer
	for _, dg := range digests {
		if mk := hashers[dg.Alg]; mk != nil && hs[dg.Alg] == nil {
			hs[dg.Alg] = mk()
			ws = append(ws, hs[dg.Alg])
		}
	}
	body := io.TeeReader(&countingBody{r: io.LimitReader(resp.Body, c.o.MaxPackageBytes+1), c: c, n: &d.Bytes}, io.MultiWriter(append(ws, io.Discard)...))
	ra, size, cleanup, err := spool(body, resp.ContentLength)
	if cleanup != nil {
		defer cleanup()
	}
	if err != nil {
		c.failed(d, err)
		if d.fail == failNetwork {
			d.fail = failRead
		}
		return
	}
	if size > c.o.MaxPackageBytes {
		d.fail, d.Error = failTooLarge, fmt.Sprintf("the package is larger than %d bytes, the limit (Options.MaxPackageBytes)", c.o.MaxPackageBytes)
		return
	}
	pf := &pkgFacts{size: size, digests: map[string]string{}}
	var magic [4]byte
	if n, _ := ra.ReadAt(magic[:], 0); n == 4 {
		pf.zip = bytes.Equal(magic[:], []byte("PK\x03\x04")) || bytes.Equal(magic[:], []byte("PK\x05\x06"))
	}
	for alg, h := range hs {
		pf.digests[alg] = hex.EncodeToString(h.Sum(nil))
	}
	d.pkg = pf
	vo := c.vo
	res, err := dump.Check(c.ctx, ra, size, &dump.Options{
		Name:            d.URL,
		Capability:      d.Parent.facts.capability,
		MaxFiles:        c.o.MaxPackageFiles,
		MaxUncompressed: c.o.MaxPackageUncompressed,
		Validator:       &vo,
		Observer:        &observer{c: c, d: d},
	})
	if err != nil {
		c.failed(d, err)
		return
	}
	d.Report = res.Report
	d.Report.Source = d.URL
	if res.Manifest != nil {
		d.fp = res.Manifest
	}
	c.progress(func(p *Progress) { p.Validated++; p.URL = d.URL })
}

// spool makes a body readable at random: in memory up to memoryPackage
// bytes (or when no temporary file can be made), in a temporary file
// otherwise.
func spool(r io.Reader, length int64) (io.ReaderAt, int64, func(), error) {
	if length >= 0 && length <= memoryPackage {
		b, err := io.ReadAll(r)
		return bytes.NewReader(b), int64(len(b)), nil, err
	}
	f, err := os.CreateTemp("", "rscheck-package-*.zip")
	if err != nil {
		b, err := io.ReadAll(r)
		return bytes.NewReader(b), int64(len(b)), nil, err
	}
	cleanup := func() { f.Close(); os.Remove(f.Name()) }
	n, err := io.Copy(f, r)
	return f, n, cleanup, err
}

// drain reads and discards up to max bytes of a body.
func drain(r io.Reader, max int64) (int64, error) {
	return io.Copy(io.Discard, io.LimitReader(r, max))
}

func parseURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		return nil
	}
	return u
}
