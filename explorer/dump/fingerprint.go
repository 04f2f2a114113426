package dump

import (
	"fmt"
	"hash/maphash"
	"strings"

	"github.com/rscheck/rscheck/validator"
)

// A Fingerprint summarises a Manifest so that two copies can be compared
// without keeping either: its document-level metadata, and one 64-bit hash
// per entry of what a Destination uses (loc, lastmod, and the change,
// datetime, hash, length, type and path of <rs:md>). Formatting, comments
// and attribute order do not matter; entry order does.
//
// A Fingerprint is a validator.Observer: pass it in Options.Observer while
// validating a Manifest.
type Fingerprint struct {
	// Top is the document-level metadata, as "capability=… at=… …".
	Top     string
	entries []fpEntry
}

type fpEntry struct {
	h    uint64
	line int
	loc  string
}

// fpSeed is fixed for the process, so fingerprints made by different
// observers compare.
var fpSeed = maphash.MakeSeed()

// NewFingerprint returns an empty Fingerprint to fill by validating a
// Manifest.
func NewFingerprint() *Fingerprint { return &Fingerprint{} }

// Header implements validator.Observer.
func (f *Fingerprint) Header(d *validator.Doc) {
	var b strings.Builder
	if d.MD != nil {
		for _, a := range []string{"capability", "at", "completed", "from", "until"} {
			if v := d.MD.Attr(a); v != nil {
				fmt.Fprintf(&b, "%s=%s ", a, strings.TrimSpace(v.Value))
			}
		}
	}
	f.Top = strings.TrimSpace(b.String())
}

// Entry implements validator.Observer.
func (f *Fingerprint) Entry(e *validator.Entry) {
	var h maphash.Hash
	h.SetSeed(fpSeed)
	h.WriteString(e.LocText())
	h.WriteByte(0)
	if e.Lastmod != nil {
		h.WriteString(strings.TrimSpace(e.Lastmod.Text))
	}
	h.WriteByte(0)
	if e.MD != nil {
		for _, a := range []string{"change", "datetime", "hash", "length", "type", "path"} {
			v := e.MD.Value(a)
			if a == "hash" {
				v = strings.Join(strings.Fields(strings.ToLower(v)), " ")
			}
			h.WriteString(strings.TrimSpace(v))
			h.WriteByte(0)
		}
	}
	f.entries = append(f.entries, fpEntry{h: h.Sum64(), line: e.Pos.Line, loc: e.LocText()})
}

// End implements validator.Observer.
func (f *Fingerprint) End(validator.Stats) {}

// Len returns the number of entries.
func (f *Fingerprint) Len() int { return len(f.entries) }

// Diff describes the first difference between two Manifests, a (the copy
// a contents link points to) and b (the one in the package), or returns ""
// when they match.
func Diff(a, b *Fingerprint) string {
	if a.Top != b.Top {
		return fmt.Sprintf("its <rs:md> says %q, the packaged manifest.xml's says %q", a.Top, b.Top)
	}
	for i := 0; i < len(a.entries) && i < len(b.entries); i++ {
		x, y := a.entries[i], b.entries[i]
		if x.h != y.h {
			if x.loc != y.loc {
				return fmt.Sprintf("entry %d is %s (line %d) but %s in the packaged manifest.xml (line %d)", i+1, x.loc, x.line, y.loc, y.line)
			}
			return fmt.Sprintf("entry %d for %s (line %d) differs from the packaged manifest.xml's (line %d) in lastmod or rs:md attributes", i+1, x.loc, x.line, y.line)
		}
	}
	if len(a.entries) != len(b.entries) {
		return fmt.Sprintf("it has %d entries, the packaged manifest.xml %d", len(a.entries), len(b.entries))
	}
	return ""
}
