package xsd

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/rscheck/rscheck/validator/xmlscan"
)

// Compiler compiles schema documents into a Schema. It is mutable
// configuration: add resources, set a file system, then Compile as often
// as needed. A Compiler is not safe for concurrent use.
type Compiler struct {
	resources map[string][]byte
	fsys      fs.FS
}

// NewCompiler returns a Compiler with no resources and no file system.
func NewCompiler() *Compiler {
	return &Compiler{resources: map[string][]byte{}}
}

// AddResource registers the schema document data under location. Compile
// and the schemaLocation of xs:include and xs:import look resources up by
// location before trying the file system, so URLs such as
// "http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd" can be served
// from memory: nothing is ever fetched from the network.
func (c *Compiler) AddResource(location string, data []byte) {
	c.resources[location] = data
}

// SetFS sets the file system from which locations that are not registered
// resources are read. A relative schemaLocation is resolved against the
// location of the document that contains it, with slash-separated paths
// (or as a URL reference when that location is a URL).
func (c *Compiler) SetFS(fsys fs.FS) { c.fsys = fsys }

// Compile loads the schema documents at locations, with everything they
// include and import, and compiles them into one Schema.
//
// Several root documents behave like one driver schema: roots with the
// same target namespace are merged (as if one included the others), and
// an xs:import of a namespace already provided by a root or an earlier
// import is skipped, as libxml2 skips it ("keeps the first import").
//
// The error is a *CompileError.
func (c *Compiler) Compile(locations ...string) (s *Schema, err error) {
	if len(locations) == 0 {
		return nil, &CompileError{Msg: "no schema location given"}
	}
	cs := newCompileState(c)
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(compileFailure)
			if !ok {
				panic(r)
			}
			s, err = nil, f.err
		}
	}()
	return cs.compile(locations), nil
}

// compileFailure carries a *CompileError out of the recursive descent.
type compileFailure struct{ err *CompileError }

type schemaDoc struct {
	loc, base     string
	tns           string
	elemQualified bool
	attrQualified bool
	blockDefault  derivSet
	root          *xnode
}

type rawDef struct {
	doc  *schemaDoc
	node *xnode
}

type buildState uint8

const (
	unbuilt buildState = iota
	building
	built
)

type groupDef struct {
	name     qname
	doc      *schemaDoc
	node     *xnode
	particle *particle // the model group, with group references unexpanded
	state    buildState
}

type attrGroupDef struct {
	uses     []*attributeUse
	prohibit []qname
	wild     *wildcard
	state    buildState
}

// typeBuild holds what a complex type needs while the schema compiles.
type typeBuild struct {
	doc      *schemaDoc
	node     *xnode
	state    buildState
	particle *particle
	mixed    bool
}

type compileState struct {
	c        *Compiler
	docs     map[string]*schemaDoc
	nsOwner  map[string]string
	gElems   map[qname]rawDef
	gAttrs   map[qname]rawDef
	gTypes   map[qname]rawDef
	gGroups  map[qname]rawDef
	gAGroups map[qname]rawDef

	elems    map[qname]*elementDecl
	attrs    map[qname]*attributeDecl
	types    map[qname]*typeDef
	groups   map[qname]*groupDef
	aGroups  map[qname]*attrGroupDef
	tbuild   map[*typeDef]*typeBuild
	complexs []*typeDef
	builtins [numBuiltins]*typeDef
	anyType  *typeDef
}

func newCompileState(c *Compiler) *compileState {
	cs := &compileState{
		c:        c,
		docs:     map[string]*schemaDoc{},
		nsOwner:  map[string]string{},
		gElems:   map[qname]rawDef{},
		gAttrs:   map[qname]rawDef{},
		gTypes:   map[qname]rawDef{},
		gGroups:  map[qname]rawDef{},
		gAGroups: map[qname]rawDef{},
		elems:    map[qname]*elementDecl{},
		attrs:    map[qname]*attributeDecl{},
		types:    map[qname]*typeDef{},
		groups:   map[qname]*groupDef{},
		aGroups:  map[qname]*attrGroupDef{},
		tbuild:   map[*typeDef]*typeBuild{},
	}
	cs.initBuiltins()
	return cs
}

// fail aborts compilation with an error located at node of doc.
func (cs *compileState) fail(doc *schemaDoc, n *xnode, unsupported bool, format string, args ...any) {
	e := &CompileError{Unsupported: unsupported, Msg: fmt.Sprintf(format, args...)}
	if doc != nil {
		e.Location = doc.loc
	}
	if n != nil {
		e.Line = n.line
	}
	panic(compileFailure{e})
}

func (cs *compileState) initBuiltins() {
	for b := bAnySimpleType; b < numBuiltins; b++ {
		info := builtinInfo[b]
		st := &simpleType{
			name:    qname{xsdNS, info.name},
			desc:    "xs:" + info.name,
			label:   "xs:" + info.name,
			variety: atomic,
			builtin: b,
			ws:      b.whitespace(),
		}
		td := &typeDef{name: st.name, desc: st.desc, st: st, simple: true, content: contentSimple}
		cs.builtins[b] = td
		cs.types[st.name] = td
	}
	for b := bAnySimpleType; b < numBuiltins; b++ {
		st := cs.builtins[b].st
		if base := builtinInfo[b].base; base > bAnyType {
			st.base = cs.builtins[base].st
			cs.builtins[b].base = cs.builtins[base]
		}
		if item := builtinInfo[b].item; item != 0 {
			st.variety = list
			st.item = cs.builtins[item].st
			st.builtin = bNone
			st.memo = false
		}
		st.idLike = b == bID
	}
	any := &typeDef{
		name:     qname{xsdNS, "anyType"},
		desc:     "xs:anyType",
		urType:   true,
		content:  contentMixed,
		wildcard: &wildcard{any: true, process: processLax},
	}
	cs.builtins[bAnyType] = any
	cs.builtins[bAnySimpleType].base = any
	cs.types[any.name] = any
	cs.anyType = any
}

// compile loads and builds everything.
func (cs *compileState) compile(locations []string) *Schema {
	for _, loc := range locations {
		data, err := cs.read(loc)
		if err != nil {
			panic(compileFailure{&CompileError{Location: loc, Msg: err.Error()}})
		}
		root := cs.parse(loc, data)
		tns, _ := root.attr("targetNamespace")
		if _, ok := cs.nsOwner[tns]; !ok {
			cs.nsOwner[tns] = loc
		}
		cs.loadDoc(loc, root, tns)
	}
	// Build every global component, then the substitution groups, then the
	// content models (which need the substitution groups).
	for q := range cs.gTypes {
		cs.typeByQName(q, nil, nil)
	}
	for q := range cs.gElems {
		cs.globalElement(q, nil, nil)
	}
	for q := range cs.gAttrs {
		cs.globalAttribute(q, nil, nil)
	}
	for q := range cs.gGroups {
		cs.group(q, nil, nil)
	}
	cs.substitutionGroups()
	for _, td := range cs.complexs {
		cs.finishComplex(td)
	}
	s := &Schema{
		elements:   cs.elems,
		attributes: cs.attrs,
		types:      cs.types,
		anyType:    cs.anyType,
	}
	return s
}

func (cs *compileState) read(loc string) ([]byte, error) {
	if data, ok := cs.c.resources[loc]; ok {
		return data, nil
	}
	if cs.c.fsys != nil && !strings.Contains(loc, "://") {
		p := strings.TrimPrefix(path.Clean(loc), "/")
		data, err := fs.ReadFile(cs.c.fsys, p)
		if err == nil {
			return data, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("schema document not found (register it with AddResource or SetFS; nothing is fetched from the network)")
}

func (cs *compileState) parse(loc string, data []byte) *xnode {
	root, err := parseSchemaXML(data)
	if err != nil {
		e := &CompileError{Location: loc, Msg: "not well-formed: " + err.Error()}
		if se, ok := err.(*xmlscan.SyntaxError); ok {
			e.Line, e.Msg = se.Pos.Line, "not well-formed: "+se.Msg
		}
		panic(compileFailure{e})
	}
	if root == nil || !root.is("schema") {
		panic(compileFailure{&CompileError{Location: loc, Msg: "the document element is not xs:schema"}})
	}
	return root
}

// resolveLocation resolves a schemaLocation against the location of the
// document containing it: a URL reference against a URL base (RFC 3986,
// 5.2, for the forms schemaLocation takes), a slash-separated path
// against a path.
func resolveLocation(base, rel string) string {
	if hasScheme(rel) {
		return rel
	}
	if !hasScheme(base) {
		if path.IsAbs(rel) {
			return rel
		}
		return path.Join(path.Dir(base), rel)
	}
	// Split the base into scheme://authority and its path (query and
	// fragment dropped).
	i := strings.Index(base, "://") + 3
	j := strings.IndexAny(base[i:], "/?#")
	origin, bpath := base, "/"
	if j >= 0 {
		origin, bpath = base[:i+j], base[i+j:]
		if k := strings.IndexAny(bpath, "?#"); k >= 0 {
			bpath = bpath[:k]
		}
	}
	switch {
	case strings.HasPrefix(rel, "//"):
		return base[:i-2] + rel
	case strings.HasPrefix(rel, "/"):
		return origin + cleanURLPath(rel)
	case rel == "":
		return base
	}
	dir := bpath[:strings.LastIndex(bpath, "/")+1]
	return origin + cleanURLPath(dir+rel)
}

func hasScheme(s string) bool {
	i := strings.IndexByte(s, ':')
	if i <= 0 || !isAlpha(s[0]) {
		return false
	}
	for k := 1; k < i; k++ {
		if c := s[k]; !isAlpha(c) && !isDigit(c) && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

// cleanURLPath removes dot segments, keeping a trailing slash.
func cleanURLPath(p string) string {
	q, suffix := p, ""
	if k := strings.IndexAny(p, "?#"); k >= 0 {
		q, suffix = p[:k], p[k:]
	}
	c := path.Clean(q)
	if strings.HasSuffix(q, "/") && c != "/" {
		c += "/"
	}
	return c + suffix
}

func parseDerivSet(s string, allowed derivSet) derivSet {
	var d derivSet
	for _, f := range strings.Fields(s) {
		switch f {
		case "#all":
			d |= allowed
		case "extension":
			d |= derivExtension
		case "restriction":
			d |= derivRestriction
		case "substitution":
			d |= derivSubstitution
		case "list":
			d |= derivList
		case "union":
			d |= derivUnion
		}
	}
	return d & allowed
}

// loadDoc registers the global components of a schema document and loads
// what it includes and imports. tns is the effective target namespace
// (differing from the document's own for a chameleon include).
func (cs *compileState) loadDoc(loc string, root *xnode, tns string) {
	key := loc + "\x00" + tns
	if cs.docs[key] != nil {
		return
	}
	doc := &schemaDoc{loc: loc, base: path.Base(loc), tns: tns, root: root}
	cs.docs[key] = doc
	if v, _ := root.attr("elementFormDefault"); v == "qualified" {
		doc.elemQualified = true
	}
	if v, _ := root.attr("attributeFormDefault"); v == "qualified" {
		doc.attrQualified = true
	}
	if v, ok := root.attr("blockDefault"); ok {
		doc.blockDefault = parseDerivSet(v, derivExtension|derivRestriction|derivSubstitution)
	}
	for _, n := range root.children {
		if n.name.Space != xsdNS {
			continue // foreign elements are ignored, as annotations
		}
		switch n.name.Local {
		case "annotation", "notation":
		case "include":
			sl, ok := n.attr("schemaLocation")
			if !ok {
				cs.fail(doc, n, false, "xs:include without schemaLocation")
			}
			iloc := resolveLocation(loc, sl)
			data, err := cs.read(iloc)
			if err != nil {
				cs.fail(doc, n, false, "cannot include %q: %v", iloc, err)
			}
			iroot := cs.parse(iloc, data)
			itns, has := iroot.attr("targetNamespace")
			if has && itns != tns {
				cs.fail(doc, n, false, "the included schema %q has target namespace %q, not %q", iloc, itns, tns)
			}
			cs.loadDoc(iloc, iroot, tns)
		case "import":
			ns, hasNS := n.attr("namespace")
			if hasNS && ns == tns || !hasNS && tns == "" {
				cs.fail(doc, n, false, "xs:import of the schema's own target namespace")
			}
			if _, done := cs.nsOwner[ns]; done {
				continue // libxml2 keeps the first import of a namespace
			}
			sl, ok := n.attr("schemaLocation")
			if !ok {
				if ns == xmlNS {
					cs.nsOwner[ns] = "(built-in)"
					cs.xmlNamespace()
				}
				continue
			}
			iloc := resolveLocation(loc, sl)
			data, err := cs.read(iloc)
			if err != nil {
				if ns == xmlNS {
					cs.nsOwner[ns] = "(built-in)"
					cs.xmlNamespace()
					continue
				}
				cs.fail(doc, n, false, "cannot import %q for namespace %q: %v", iloc, ns, err)
			}
			cs.nsOwner[ns] = iloc
			iroot := cs.parse(iloc, data)
			itns, _ := iroot.attr("targetNamespace")
			if itns != ns {
				cs.fail(doc, n, false, "the imported schema %q has target namespace %q, not %q", iloc, itns, ns)
			}
			cs.loadDoc(iloc, iroot, itns)
		case "redefine":
			cs.fail(doc, n, true, "xs:redefine is not supported")
		case "override":
			cs.fail(doc, n, true, "xs:override (XML Schema 1.1) is not supported")
		case "element", "attribute", "complexType", "simpleType", "group", "attributeGroup":
			name, ok := n.attr("name")
			if !ok {
				cs.fail(doc, n, false, "a global xs:%s needs a name", n.name.Local)
			}
			q := qname{tns, name}
			var m map[qname]rawDef
			switch n.name.Local {
			case "element":
				m = cs.gElems
			case "attribute":
				m = cs.gAttrs
			case "complexType", "simpleType":
				m = cs.gTypes
			case "group":
				m = cs.gGroups
			default:
				m = cs.gAGroups
			}
			if prev, dup := m[q]; dup {
				cs.fail(doc, n, false, "a global %s %s is already declared (%s:%d)", n.name.Local, q, prev.doc.loc, prev.node.line)
			}
			m[q] = rawDef{doc, n}
		default:
			cs.fail(doc, n, true, "xs:%s is not supported at the top level of a schema", n.name.Local)
		}
	}
}

// xmlNamespace declares the attributes of the XML namespace (xml:lang,
// xml:space, xml:base, xml:id) when a schema imports it without a
// loadable schema document.
func (cs *compileState) xmlNamespace() {
	mk := func(local string, st *simpleType) {
		q := qname{xmlNS, local}
		cs.attrs[q] = &attributeDecl{name: q, desc: "xml.xsd (built-in): attribute " + fmt.Sprintf("%q", local), typ: st, global: true}
	}
	mk("lang", cs.builtins[bLanguage].st)
	mk("base", cs.builtins[bAnyURI].st)
	mk("id", cs.builtins[bID].st)
	space := &simpleType{
		name: qname{xmlNS, "space"}, desc: "xml:space", label: "xml:space (xs:NCName)", variety: atomic, builtin: bNCName,
		base: cs.builtins[bNCName].st, ws: wsCollapse, normValue: true, memo: true,
	}
	space.facets = newFacetSet()
	space.facets.hasEnum = true
	for _, lit := range []string{"default", "preserve"} {
		space.facets.enum = append(space.facets.enum, value{b: bNCName, s: lit})
		space.facets.enumLits = append(space.facets.enumLits, lit)
	}
	mk("space", space)
}

// resolveQName resolves a QName-valued schema attribute.
func (cs *compileState) resolveQName(doc *schemaDoc, n *xnode, v string) qname {
	v = strings.TrimSpace(v)
	prefix, local, ok := strings.Cut(v, ":")
	if !ok {
		prefix, local = "", v
	}
	ns, bound := n.lookup(prefix)
	if !bound {
		cs.fail(doc, n, false, "the prefix %q of %q is not declared", prefix, v)
	}
	return qname{ns, local}
}

// typeByQName returns the type definition named q, building it if needed.
// doc and n locate the reference for errors (nil when building globals).
func (cs *compileState) typeByQName(q qname, doc *schemaDoc, n *xnode) *typeDef {
	if td, ok := cs.types[q]; ok {
		if tb := cs.tbuild[td]; tb != nil && tb.state == building && td.simple {
			cs.fail(doc, n, false, "the simple type %s is defined in terms of itself", q)
		}
		return td
	}
	raw, ok := cs.gTypes[q]
	if !ok {
		if q.ns == xsdNS {
			cs.fail(doc, n, false, "there is no built-in type xs:%s", q.local)
		}
		cs.fail(doc, n, false, "type %s is not declared", q)
	}
	desc := fmt.Sprintf("%s: %s %q", raw.doc.base, raw.node.name.Local, q.local)
	if raw.node.is("simpleType") {
		td := &typeDef{name: q, desc: desc, simple: true, content: contentSimple, where: where{raw.doc.base, raw.node.line}}
		cs.types[q] = td
		tb := &typeBuild{doc: raw.doc, node: raw.node, state: building}
		cs.tbuild[td] = tb
		td.st = cs.buildSimple(raw.doc, raw.node, q, desc)
		td.base = cs.simpleBaseType(td.st)
		tb.state = built
		return td
	}
	td := &typeDef{name: q, desc: desc, where: where{raw.doc.base, raw.node.line}}
	cs.types[q] = td
	cs.buildComplex(raw.doc, raw.node, td)
	return td
}

// simpleBaseType returns the typeDef of a simple type's base.
func (cs *compileState) simpleBaseType(st *simpleType) *typeDef {
	if st.base == nil {
		return cs.builtins[bAnySimpleType]
	}
	if td, ok := cs.types[st.base.name]; ok && st.base.name.local != "" && td.st == st.base {
		return td
	}
	return &typeDef{st: st.base, simple: true, desc: st.base.desc, base: cs.builtins[bAnySimpleType], content: contentSimple}
}

// simpleTypeRef resolves a reference to a simple type.
func (cs *compileState) simpleTypeRef(doc *schemaDoc, n *xnode, v string) *simpleType {
	q := cs.resolveQName(doc, n, v)
	td := cs.typeByQName(q, doc, n)
	if !td.simple || td.st == nil {
		cs.fail(doc, n, false, "%s is not a simple type", q)
	}
	return td.st
}

// children returns the XSD children of n, skipping annotations and
// checking that n has no identity constraints.
func (cs *compileState) children(doc *schemaDoc, n *xnode) []*xnode {
	var out []*xnode
	for _, c := range n.children {
		if c.name.Space != xsdNS {
			continue
		}
		switch c.name.Local {
		case "annotation":
			continue
		case "unique", "key", "keyref":
			cs.fail(doc, c, true, "identity constraints (xs:%s) are not supported", c.name.Local)
		case "assert", "assertion", "alternative", "openContent", "defaultOpenContent":
			cs.fail(doc, c, true, "xs:%s (XML Schema 1.1) is not supported", c.name.Local)
		}
		out = append(out, c)
	}
	return out
}

// buildSimple builds a simple type definition from an xs:simpleType node.
func (cs *compileState) buildSimple(doc *schemaDoc, n *xnode, name qname, desc string) *simpleType {
	st := &simpleType{name: name, desc: desc, where: where{doc.base, n.line}}
	if v, ok := n.attr("final"); ok {
		st.final = parseDerivSet(v, derivRestriction|derivList|derivUnion)
	}
	kids := cs.children(doc, n)
	if len(kids) != 1 {
		cs.fail(doc, n, false, "xs:simpleType needs exactly one of xs:restriction, xs:list, xs:union")
	}
	k := kids[0]
	switch k.name.Local {
	case "restriction":
		cs.simpleRestriction(doc, k, st, nil)
	case "list":
		st.variety = list
		st.ws = wsCollapse
		if v, ok := k.attr("itemType"); ok {
			st.item = cs.simpleTypeRef(doc, k, v)
		}
		for _, c := range cs.children(doc, k) {
			if !c.is("simpleType") || st.item != nil {
				cs.fail(doc, c, false, "xs:list needs either an itemType or one xs:simpleType")
			}
			st.item = cs.buildSimple(doc, c, qname{}, desc+" (list item)")
		}
		if st.item == nil {
			cs.fail(doc, k, false, "xs:list needs an item type")
		}
		if st.item.variety == list {
			cs.fail(doc, k, false, "the item type of a list cannot be a list")
		}
		st.idLike = st.item.idLike
		st.memo = st.item.memo
	case "union":
		st.variety = union
		st.ws = wsCollapse
		if v, ok := k.attr("memberTypes"); ok {
			for _, f := range strings.Fields(v) {
				st.members = append(st.members, cs.simpleTypeRef(doc, k, f))
			}
		}
		for i, c := range cs.children(doc, k) {
			if !c.is("simpleType") {
				cs.fail(doc, c, false, "xs:union may contain only xs:simpleType")
			}
			st.members = append(st.members, cs.buildSimple(doc, c, qname{}, fmt.Sprintf("%s (union member %d)", desc, i+1)))
		}
		if len(st.members) == 0 {
			cs.fail(doc, k, false, "xs:union needs member types")
		}
		for _, m := range st.members {
			st.idLike = st.idLike || m.idLike
			st.memo = st.memo || m.memo
		}
	default:
		cs.fail(doc, k, false, "xs:simpleType needs exactly one of xs:restriction, xs:list, xs:union")
	}
	setLabel(st)
	return st
}

// setLabel names a user-defined simple type for messages by its name (if
// any) and its shape: "tLoc (xs:anyURI)", "union of xs:date, xs:dateTime".
func setLabel(st *simpleType) {
	var shape string
	switch st.variety {
	case list:
		shape = "list of " + st.item.label
	case union:
		labels := make([]string, len(st.members))
		for i, m := range st.members {
			labels[i] = m.label
		}
		shape = "union of " + strings.Join(labels, ", ")
	default:
		shape = "xs:" + builtinInfo[st.builtin].name
	}
	if st.name.local != "" {
		st.label = st.name.local + " (" + shape + ")"
	} else {
		st.label = shape
	}
}

// simpleRestriction fills st from an xs:restriction of a simple type. base
// is given for simpleContent restrictions (the base content type).
func (cs *compileState) simpleRestriction(doc *schemaDoc, k *xnode, st *simpleType, base *simpleType) {
	kids := cs.children(doc, k)
	inContent := base != nil // a simpleContent restriction
	if v, ok := k.attr("base"); ok && !inContent {
		base = cs.simpleTypeRef(doc, k, v)
	}
	if len(kids) > 0 && kids[0].is("simpleType") {
		if base != nil && !inContent {
			cs.fail(doc, k, false, "xs:restriction has both a base and an xs:simpleType")
		}
		base = cs.buildSimple(doc, kids[0], qname{}, st.desc)
		kids = kids[1:]
	}
	if base == nil {
		cs.fail(doc, k, false, "xs:restriction needs a base type")
	}
	if base.final&derivRestriction != 0 {
		cs.fail(doc, k, false, "the base type %s is final for restriction", base.desc)
	}
	st.base = base
	st.variety = base.variety
	st.builtin = base.builtin
	st.item = base.item
	st.members = base.members
	st.ws = base.ws
	st.normValue = base.normValue
	st.memo = base.memo
	st.idLike = base.idLike
	if base.facets != nil {
		f := *base.facets
		st.facets = &f
	}
	if len(kids) == 0 {
		return
	}
	own := newFacetSet()
	var ownPatterns []*pattern
	var enum []value
	var enumLits []string
	hasEnum := false
	for _, f := range kids {
		val, ok := f.attr("value")
		if !ok && f.name.Local != "attribute" {
			cs.fail(doc, f, false, "the facet xs:%s needs a value", f.name.Local)
		}
		if !cs.facetApplies(st, f.name.Local) {
			cs.fail(doc, f, false, "the facet xs:%s does not apply to %s", f.name.Local, base.desc)
		}
		switch f.name.Local {
		case "length", "minLength", "maxLength":
			d, ok := parseInteger(val, bNonNegativeInteger)
			if !ok || len(d.ip) > 9 {
				cs.fail(doc, f, false, "the value %q of xs:%s is not a valid non-negative integer", val, f.name.Local)
			}
			n := atoiDigits(d.ip)
			switch f.name.Local {
			case "length":
				own.length = n
			case "minLength":
				own.minLength = n
			default:
				own.maxLength = n
			}
		case "totalDigits", "fractionDigits":
			b := bNonNegativeInteger
			if f.name.Local == "totalDigits" {
				b = bPositiveInteger
			}
			d, ok := parseInteger(val, b)
			if !ok || len(d.ip) > 9 {
				cs.fail(doc, f, false, "the value %q of xs:%s is not valid", val, f.name.Local)
			}
			if f.name.Local == "totalDigits" {
				own.totalDigits = atoiDigits(d.ip)
			} else {
				own.fractionDigits = atoiDigits(d.ip)
			}
		case "minInclusive", "maxInclusive", "minExclusive", "maxExclusive":
			v := cs.facetValue(doc, f, base, val)
			b := &bound{v: v, lit: val}
			switch f.name.Local {
			case "minInclusive":
				own.minIncl = b
			case "maxInclusive":
				own.maxIncl = b
			case "minExclusive":
				own.minExcl = b
			default:
				own.maxExcl = b
			}
		case "enumeration":
			hasEnum = true
			enum = append(enum, cs.facetValue(doc, f, base, val))
			enumLits = append(enumLits, val)
		case "pattern":
			p, err := compilePattern(val)
			if err != nil {
				cs.fail(doc, f, strings.Contains(err.Error(), "not supported") || strings.Contains(err.Error(), "unknown Unicode block"), "%v", err)
			}
			ownPatterns = append(ownPatterns, p)
		case "whiteSpace":
			var ws whitespace
			switch val {
			case "preserve":
				ws = wsPreserve
			case "replace":
				ws = wsReplace
			case "collapse":
				ws = wsCollapse
			default:
				cs.fail(doc, f, false, "invalid whiteSpace value %q", val)
			}
			if ws < st.ws {
				cs.fail(doc, f, false, "whiteSpace %q is weaker than the base type's", val)
			}
			st.ws = ws
		default:
			cs.fail(doc, f, false, "xs:%s is not a facet", f.name.Local)
		}
	}
	if st.facets == nil {
		st.facets = newFacetSet()
	}
	fs := st.facets
	if own.length >= 0 {
		fs.length = own.length
	}
	if own.minLength >= 0 {
		fs.minLength = own.minLength
	}
	if own.maxLength >= 0 {
		fs.maxLength = own.maxLength
	}
	if own.totalDigits >= 0 {
		fs.totalDigits = own.totalDigits
	}
	if own.fractionDigits >= 0 {
		fs.fractionDigits = own.fractionDigits
	}
	for _, p := range []struct{ own, dst **bound }{{&own.minIncl, &fs.minIncl}, {&own.maxIncl, &fs.maxIncl}, {&own.minExcl, &fs.minExcl}, {&own.maxExcl, &fs.maxExcl}} {
		if *p.own != nil {
			*p.dst = *p.own
		}
	}
	if hasEnum {
		fs.hasEnum, fs.enum, fs.enumLits = true, enum, enumLits
		st.normValue = true
	}
	if len(ownPatterns) > 0 {
		fs.patterns = append([][]*pattern{ownPatterns}, fs.patterns...)
		st.normValue = true
		// QName values depend on the namespaces in scope: not cacheable.
		st.memo = st.builtin != bQName && st.builtin != bNOTATION
	}
}

func atoiDigits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// facetApplies reports whether facet may constrain types derived from st.
func (cs *compileState) facetApplies(st *simpleType, facet string) bool {
	switch facet {
	case "pattern", "enumeration":
		return true
	}
	switch st.variety {
	case union:
		return false
	case list:
		return facet == "length" || facet == "minLength" || facet == "maxLength" || facet == "whiteSpace"
	}
	b := st.builtin
	switch facet {
	case "whiteSpace":
		return true
	case "length", "minLength", "maxLength":
		switch b.primitive() {
		case bString, bAnyURI, bQName, bNOTATION, bHexBinary, bBase64Binary, bAnySimpleType:
			return true
		}
		return false
	case "totalDigits", "fractionDigits":
		return b.decimalFamily()
	case "minInclusive", "maxInclusive", "minExclusive", "maxExclusive":
		return b.ordered()
	}
	return true
}

// facetValue parses the value of a facet (a bound or an enumeration) with
// the base type, as libxml2 does.
func (cs *compileState) facetValue(doc *schemaDoc, f *xnode, base *simpleType, lit string) value {
	ctx := &valCtx{lookup: f.lookup}
	v, errs := base.validate(lit, true, false, ctx)
	if errs != nil {
		cs.fail(doc, f, false, "the value %q of xs:%s is not a valid value of %s", lit, f.name.Local, base.desc)
	}
	if base.variety == atomic && (base.builtin.stringFamily() || base.builtin == bAnySimpleType) {
		v.s = normalizeWS(lit, base.ws)
	}
	if base.variety == list {
		v.s = collapse(lit)
	}
	return v
}

// wildcardFrom builds a wildcard from xs:any or xs:anyAttribute.
func (cs *compileState) wildcardFrom(doc *schemaDoc, n *xnode) *wildcard {
	w := &wildcard{}
	switch v, _ := n.attr("processContents"); v {
	case "", "strict":
		w.process = processStrict
	case "lax":
		w.process = processLax
	case "skip":
		w.process = processSkip
	default:
		cs.fail(doc, n, false, "invalid processContents %q", v)
	}
	nsAttr, ok := n.attr("namespace")
	if !ok {
		nsAttr = "##any"
	}
	switch strings.TrimSpace(nsAttr) {
	case "##any":
		w.any = true
	case "##other":
		w.not, w.notNS = true, doc.tns
	default:
		w.set = map[string]bool{}
		for _, f := range strings.Fields(nsAttr) {
			ns := f
			switch f {
			case "##targetNamespace":
				ns = doc.tns
			case "##local":
				ns = ""
			case "##any", "##other":
				cs.fail(doc, n, false, "%s cannot be combined with other namespaces", f)
			}
			if !w.set[ns] {
				w.set[ns] = true
				w.list = append(w.list, ns)
			}
		}
	}
	return w
}

// intersectWildcards is the XML Schema 1.0 wildcard intersection (for
// complete attribute wildcards); processContents comes from a.
func intersectWildcards(a, b *wildcard) *wildcard {
	if a == nil || b == nil {
		if a == nil {
			return b
		}
		return a
	}
	switch {
	case a.any:
		r := *b
		r.process = a.process
		return &r
	case b.any:
		return a
	case a.not && b.not:
		return a
	}
	var set []string
	if a.not {
		a, b = b, a
	}
	for _, ns := range a.list {
		if b.allows(ns) {
			set = append(set, ns)
		}
	}
	r := &wildcard{set: map[string]bool{}, process: a.process}
	for _, ns := range set {
		r.set[ns] = true
		r.list = append(r.list, ns)
	}
	return r
}

// unionWildcards is the XML Schema 1.0 wildcard union (for extension);
// processContents comes from a (the derived type's).
func unionWildcards(a, b *wildcard) *wildcard {
	if a == nil || b == nil {
		if a == nil {
			return b
		}
		return a
	}
	switch {
	case a.any || b.any:
		return &wildcard{any: true, process: a.process}
	case a.not && b.not:
		if a.notNS == b.notNS {
			return a
		}
		return &wildcard{any: true, process: a.process}
	case a.not || b.not:
		n, s := a, b
		if b.not {
			n, s = b, a
		}
		if s.set[n.notNS] {
			return &wildcard{any: true, process: a.process}
		}
		return &wildcard{not: true, notNS: n.notNS, process: a.process}
	}
	r := &wildcard{set: map[string]bool{}, process: a.process}
	for _, w := range []*wildcard{a, b} {
		for _, ns := range w.list {
			if !r.set[ns] {
				r.set[ns] = true
				r.list = append(r.list, ns)
			}
		}
	}
	return r
}
