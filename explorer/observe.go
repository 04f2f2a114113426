package explorer

import (
	"strings"

	"github.com/rscheck/rscheck/validator"
)

// observer collects, while a document is validated, the facts of the
// cross-document checks: its header, what it lists, and the resources of
// lists (kept compactly). It sees the same document model as the rules,
// in the same single pass.
type observer struct {
	c   *crawler
	d   *Document
	doc *validator.Doc
}

func (o *observer) Header(doc *validator.Doc) {
	o.doc = doc
	f := &o.d.facts
	f.read = true
	f.kind = doc.Kind
	f.capability = doc.Capability
	f.isIndex = doc.IsIndex
	f.md = elemPos(doc.MD)
	f.times = readTimes(doc.MD)
	for _, l := range doc.Links {
		rel := strings.TrimSpace(l.Value("rel"))
		if rel != "up" && rel != "index" {
			continue
		}
		la := linkAt{href: ResolveReference(o.d.URL, l.Value("href")), at: attrPos(l, "href")}
		if rel == "up" {
			f.up = append(f.up, la)
		} else {
			f.index = append(f.index, la)
		}
	}
}

func (o *observer) End(s validator.Stats) { o.d.facts.entries = s.Entries }

func (o *observer) Entry(e *validator.Entry) {
	loc := e.LocText()
	if loc == "" {
		return
	}
	d, kind := o.d, o.doc.Kind
	switch {
	case d.role == rolePackage:
		o.manifestEntry(e, loc)
	case kind == validator.Description:
		o.child(e, loc, roleCapList)
	case kind == validator.CapabilityList:
		switch c := strings.TrimSpace(e.MD.Value("capability")); c {
		case "change-notification", "framework-notification":
			ch := &Channel{Topic: ResolveReference(d.URL, loc), Capability: c, CapabilityList: d.URL, at: elemPos(e.Loc)}
			if hubs := e.LinksRel("hub"); len(hubs) > 0 {
				ch.Hub = ResolveReference(d.URL, hubs[0].Value("href"))
			}
			d.channels = append(d.channels, ch)
		default:
			o.child(e, loc, roleCapDoc)
		}
	case o.doc.IsIndex && o.doc.Cap != nil:
		o.child(e, loc, rolePart)
	case kind == validator.ResourceDump || kind == validator.ChangeDump:
		o.child(e, loc, rolePackage)
	case kind == validator.ResourceList:
		o.resource(e, loc, "")
		if o.indexLike(e) {
			o.child(e, loc, roleProbe)
		}
	case kind == validator.ChangeList:
		o.resource(e, loc, strings.TrimSpace(e.MD.Value("change")))
		if o.indexLike(e) {
			o.child(e, loc, roleProbe)
		}
	}
}

// child records an entry that points to a document.
func (o *observer) child(e *validator.Entry, loc string, rl role) {
	r := &ref{from: o.d, at: elemPos(e.Loc), role: rl, n: e.N}
	if md := e.MD; md != nil {
		r.cap = strings.TrimSpace(md.Value("capability"))
		r.capAt = attrPos(md, "capability")
		r.times = readTimes(md)
		if rl == rolePackage {
			r.length, r.lengthAt = md.Value("length"), attrPos(md, "length")
			r.typ, r.typAt = md.Value("type"), attrPos(md, "type")
			r.hash, r.hashAt = md.Value("hash"), attrPos(md, "hash")
		}
	}
	if rl == rolePackage {
		if ls := e.LinksRel("contents"); len(ls) > 0 {
			r.contents = ResolveReference(o.d.URL, ls[0].Value("href"))
			r.contentsAt = attrPos(ls[0], "href")
		}
	}
	o.d.specs = append(o.d.specs, &childSpec{url: ResolveReference(o.d.URL, loc), ref: r})
}

// indexLike reports whether an entry of a list describes a list rather than
// a resource: a capability, or the time attributes index entries have.
// Such an entry is fetched to see whether the list is an index served as
// <urlset>.
func (o *observer) indexLike(e *validator.Entry) bool {
	md := e.MD
	if md == nil {
		return false
	}
	if md.Has("capability") {
		return true
	}
	if o.doc.Kind == validator.ResourceList {
		return md.Has("at") || md.Has("completed")
	}
	return md.Has("from") || md.Has("until")
}

// resource records a resource of a Resource List or Change List: in the
// Capability List's set (Resource Lists only) and in the audit sample.
func (o *observer) resource(e *validator.Entry, loc, change string) {
	c, d := o.c, o.d
	n := c.resources.Add(1)
	if n&1023 == 0 {
		c.progress(func(*Progress) {})
	}
	key := uriKey(loc)
	if change == "" && d.scope != nil {
		length, hash := int64(-1), ""
		if e.MD != nil {
			length, hash = parseLength(e.MD.Value("length")), e.MD.Value("hash")
		}
		alg, dg := pickDigest(hash)
		d.scope.addListed(c, key, resFact{doc: int32(d.id), line: int32(e.Loc.Pos.Line), length: length, digest: dg, alg: alg}, d)
	}
	if c.o.Audit == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.sample.wants(key) {
		return
	}
	it := &auditItem{key: key, uri: loc, doc: d, at: elemPos(e.Loc), change: change}
	if e.Lastmod != nil {
		it.lastmod = strings.TrimSpace(e.Lastmod.Text)
	}
	if md := e.MD; md != nil {
		it.length, it.hash, it.typ = md.Value("length"), md.Value("hash"), md.Value("type")
		if dt, err := validator.ParseDatetime(md.Value("datetime")); err == nil && change != "" {
			it.datetime = dt.Time
		}
	}
	c.sample.add(it)
}

// manifestEntry compares a bitstream of a Resource Dump's package with the
// Resource List of the same Capability List.
func (o *observer) manifestEntry(e *validator.Entry, loc string) {
	d := o.d
	if !d.inRD || d.scope == nil || e.MD == nil || o.doc.Kind != validator.ResourceDumpManifest {
		return
	}
	length, hash := parseLength(e.MD.Value("length")), e.MD.Value("hash")
	alg, dg := pickDigest(hash)
	d.scope.checkDumped(o.c, d, loc, uriKey(loc), length, alg, dg, e)
}
