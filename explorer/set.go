package explorer

import (
	"container/heap"
	"encoding/hex"
	"hash/maphash"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/rscheck/rscheck/validator"
)

// uriSeed is fixed for the process so that the keys of one crawl compare.
var uriSeed = maphash.MakeSeed()

// uriKey is the compact key of a resource: a 64-bit hash of its URI. With
// 100,000 resources the chance of a collision is about 3·10⁻¹⁰.
func uriKey(uri string) uint64 { return maphash.String(uriSeed, uri) }

// resFact is what the explorer keeps of one resource of a Resource List:
// where it is listed, and its length and one digest to compare with a
// Resource Dump. Keys and facts are 40 bytes a resource, plus the map's
// spare capacity.
type resFact struct {
	doc    int32  // Document.id of the list
	line   int32  // line of its <loc>
	length int64  // -1 when not given
	digest uint64 // first 8 bytes of the digest, 0 when none
	alg    uint8  // index in digestPref + 1, 0 when none
	inDump bool   // seen in a package of the Resource Dump
}

// ResourceCost is the memory the explorer keeps per resource of a Resource
// List to detect duplicates and compare with Resource Dumps: the key and
// its facts (the map's spare capacity comes on top, up to about as much).
const ResourceCost = int(unsafe.Sizeof(uint64(0)) + unsafe.Sizeof(resFact{}))

// digestPref is the order in which a digest is chosen to keep, so that a
// Resource List and a Manifest listing several algorithms keep the same.
var digestPref = []string{"md5", "sha-256", "sha-1", "sha-512", "sha-384", "sha-224"}

// pickDigest returns the preferred digest of a hash attribute.
func pickDigest(hashAttr string) (alg uint8, prefix uint64) {
	if strings.TrimSpace(hashAttr) == "" {
		return 0, 0
	}
	ds, _ := validator.ParseHash(hashAttr)
	for i, name := range digestPref {
		for _, d := range ds {
			if d.Alg == name && len(d.Hex) >= 16 {
				b, err := hex.DecodeString(d.Hex[:16])
				if err != nil {
					continue
				}
				var v uint64
				for _, x := range b {
					v = v<<8 | uint64(x)
				}
				return uint8(i + 1), v
			}
		}
	}
	return 0, 0
}

func parseLength(v string) int64 {
	v = strings.TrimSpace(v)
	if v == "" {
		return -1
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// sample is an audit sample: the k resources whose URI keys are the
// smallest (a bottom-k sketch). It is a uniform sample of the resources,
// whatever order the documents are read in, and the same on every run:
// which resources, and, for a resource listed more than once, which entry
// is audited (see better). k < 0 keeps every resource.
type sample struct {
	k     int
	items sampleHeap
	byKey map[uint64]*auditItem // the items, so a resource is audited once
}

// auditItem is one resource to audit and where it is listed.
type auditItem struct {
	key      uint64
	uri      string
	doc      *Document
	at       pos
	change   string    // "" in Resource Lists
	datetime time.Time // of the change; zero when not given
	lastmod  string
	length   string
	hash     string
	typ      string
}

// better reports whether a describes its resource better than b, the
// entry already in the sample for the same resource: a Resource List's
// entry (all of whose metadata the audit compares) before a change (only
// its status is); of two changes, the later; otherwise the first in
// document and line order, so that the choice never depends on the order
// in which the crawl read the documents.
func better(a, b *auditItem) bool {
	if (a.change == "") != (b.change == "") {
		return a.change == ""
	}
	if !a.datetime.Equal(b.datetime) {
		return a.datetime.After(b.datetime)
	}
	if a.doc.URL != b.doc.URL {
		return a.doc.URL < b.doc.URL
	}
	return a.at.Line < b.at.Line
}

type sampleHeap []*auditItem // a max-heap on key

func (h sampleHeap) Len() int           { return len(h) }
func (h sampleHeap) Less(i, j int) bool { return h[i].key > h[j].key }
func (h sampleHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *sampleHeap) Push(x any)        { *h = append(*h, x.(*auditItem)) }
func (h *sampleHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// wants reports whether a resource with key k would enter the sample or
// is already in it (where another of its entries may replace the one
// kept), so that the caller builds an item only then.
func (s *sample) wants(k uint64) bool {
	return s.k < 0 || len(s.items) < s.k || k < s.items[0].key || s.byKey[k] != nil
}

func (s *sample) add(it *auditItem) {
	if old := s.byKey[it.key]; old != nil {
		if better(it, old) {
			*old = *it // same key: the heap's order holds
		}
		return
	}
	if !s.wants(it.key) {
		return
	}
	if s.byKey == nil {
		s.byKey = map[uint64]*auditItem{}
	}
	s.byKey[it.key] = it
	heap.Push(&s.items, it)
	if s.k >= 0 && len(s.items) > s.k {
		out := heap.Pop(&s.items).(*auditItem)
		delete(s.byKey, out.key)
	}
}
