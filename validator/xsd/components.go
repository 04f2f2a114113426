package xsd

import (
	"fmt"
	"strconv"
	"strings"
)

// This file builds the structure components: complex types, element and
// attribute declarations, model and attribute groups, particles.

// globalElement returns the global element declaration q.
func (cs *compileState) globalElement(q qname, doc *schemaDoc, n *xnode) *elementDecl {
	if d, ok := cs.elems[q]; ok {
		return d
	}
	raw, ok := cs.gElems[q]
	if !ok {
		cs.fail(doc, n, false, "element %s is not declared", q)
	}
	d := &elementDecl{name: q, global: true, where: where{raw.doc.base, raw.node.line},
		desc: fmt.Sprintf("%s: element %q", raw.doc.base, q.local)}
	cs.elems[q] = d
	cs.fillElement(raw.doc, raw.node, d)
	return d
}

// globalAttribute returns the global attribute declaration q.
func (cs *compileState) globalAttribute(q qname, doc *schemaDoc, n *xnode) *attributeDecl {
	if d, ok := cs.attrs[q]; ok {
		return d
	}
	raw, ok := cs.gAttrs[q]
	if !ok {
		cs.fail(doc, n, false, "attribute %s is not declared", q)
	}
	d := &attributeDecl{name: q, global: true, where: where{raw.doc.base, raw.node.line},
		desc: fmt.Sprintf("%s: attribute %q", raw.doc.base, q.local)}
	cs.attrs[q] = d
	cs.fillAttribute(raw.doc, raw.node, d)
	return d
}

// fillElement completes an element declaration from its node.
func (cs *compileState) fillElement(doc *schemaDoc, n *xnode, d *elementDecl) {
	if v, ok := n.attr("nillable"); ok {
		d.nillable = xsdBool(v)
	}
	if v, ok := n.attr("abstract"); ok && d.global {
		d.abstract = xsdBool(v)
	}
	d.block = doc.blockDefault
	if v, ok := n.attr("block"); ok {
		d.block = parseDerivSet(v, derivExtension|derivRestriction|derivSubstitution)
	}
	if v, ok := n.attr("substitutionGroup"); ok && d.global {
		d.substHead = cs.globalElement(cs.resolveQName(doc, n, v), doc, n)
	}
	typeAttr, hasType := n.attr("type")
	var inline *xnode
	for _, c := range cs.children(doc, n) {
		switch c.name.Local {
		case "complexType", "simpleType":
			if inline != nil || hasType {
				cs.fail(doc, c, false, "element %s has more than one type", d.name.local)
			}
			inline = c
		default:
			cs.fail(doc, c, false, "xs:%s is not allowed in xs:element", c.name.Local)
		}
	}
	switch {
	case hasType:
		d.typ = cs.typeByQName(cs.resolveQName(doc, n, typeAttr), doc, n)
	case inline != nil && inline.is("simpleType"):
		st := cs.buildSimple(doc, inline, qname{}, d.desc)
		d.typ = &typeDef{desc: d.desc, st: st, simple: true, content: contentSimple, where: where{doc.base, inline.line}}
		d.typ.base = cs.simpleBaseType(st)
	case inline != nil:
		td := &typeDef{desc: d.desc, where: where{doc.base, inline.line}}
		cs.buildComplex(doc, inline, td)
		d.typ = td
	case d.substHead != nil:
		d.typ = d.substHead.typ
	default:
		d.typ = cs.anyType
	}
	var st *simpleType
	if d.typ.simple || d.typ.content == contentSimple {
		st = d.typ.st
	}
	d.valueConstraint = cs.readConstraint(doc, n, "element "+d.name.local, st)
}

// readConstraint reads the default or fixed attribute of a declaration or
// use, and checks the value against its simple type (nil for complex
// content, compared as a string).
func (cs *compileState) readConstraint(doc *schemaDoc, n *xnode, what string, st *simpleType) valueConstraint {
	def, hasDef := n.attr("default")
	fix, hasFix := n.attr("fixed")
	if hasDef && hasFix {
		cs.fail(doc, n, false, "%s has both default and fixed", what)
	}
	c := valueConstraint{hasDefault: hasDef, hasFixed: hasFix, constraint: def + fix}
	if (hasDef || hasFix) && st != nil {
		v, errs := st.validate(c.constraint, true, false, &valCtx{lookup: n.lookup})
		if errs != nil {
			cs.fail(doc, n, false, "the value constraint %q of %s is not valid for its type", c.constraint, what)
		}
		c.fixedValue = v
	}
	return c
}

func xsdBool(v string) bool {
	v = strings.TrimSpace(v)
	return v == "true" || v == "1"
}

// fillAttribute completes an attribute declaration from its node.
func (cs *compileState) fillAttribute(doc *schemaDoc, n *xnode, d *attributeDecl) {
	typeAttr, hasType := n.attr("type")
	var inline *xnode
	for _, c := range cs.children(doc, n) {
		if !c.is("simpleType") || inline != nil || hasType {
			cs.fail(doc, c, false, "xs:%s is not allowed here in xs:attribute", c.name.Local)
		}
		inline = c
	}
	switch {
	case hasType:
		d.typ = cs.simpleTypeRef(doc, n, typeAttr)
	case inline != nil:
		d.typ = cs.buildSimple(doc, inline, qname{}, d.desc)
	default:
		d.typ = cs.builtins[bAnySimpleType].st
	}
	d.valueConstraint = cs.readConstraint(doc, n, "attribute "+d.name.local, d.typ)
}

// buildComplex fills a complex type definition from an xs:complexType
// node. td is registered before this is called, so recursive references
// find it.
func (cs *compileState) buildComplex(doc *schemaDoc, n *xnode, td *typeDef) {
	tb := &typeBuild{doc: doc, node: n, state: building}
	cs.tbuild[td] = tb
	cs.complexs = append(cs.complexs, td)
	if v, ok := n.attr("abstract"); ok {
		td.abstract = xsdBool(v)
	}
	td.block = doc.blockDefault & (derivExtension | derivRestriction)
	if v, ok := n.attr("block"); ok {
		td.block = parseDerivSet(v, derivExtension|derivRestriction)
	}
	if v, ok := n.attr("final"); ok {
		td.final = parseDerivSet(v, derivExtension|derivRestriction)
	}
	mixedAttr, _ := n.attr("mixed")
	tb.mixed = xsdBool(mixedAttr)
	kids := cs.children(doc, n)
	switch {
	case len(kids) > 0 && kids[0].is("simpleContent"):
		cs.simpleContent(doc, kids[0], td)
	case len(kids) > 0 && kids[0].is("complexContent"):
		cc := kids[0]
		if v, ok := cc.attr("mixed"); ok {
			tb.mixed = xsdBool(v)
		}
		cs.complexContent(doc, cc, td, tb)
	default:
		// Shorthand: a restriction of xs:anyType.
		td.base = cs.anyType
		td.method = derivRestriction
		// (Prohibitions have nothing to remove from anyType.)
		p, uses, _, wild := cs.contentAndAttributes(doc, n, kids, td.desc)
		tb.particle = p
		cs.setAttributes(doc, n, td, uses, wild)
	}
	tb.state = built
}

// simpleContent handles xs:simpleContent.
func (cs *compileState) simpleContent(doc *schemaDoc, sc *xnode, td *typeDef) {
	kids := cs.children(doc, sc)
	if len(kids) != 1 || !kids[0].is("extension") && !kids[0].is("restriction") {
		cs.fail(doc, sc, false, "xs:simpleContent needs one xs:extension or xs:restriction")
	}
	k := kids[0]
	bv, ok := k.attr("base")
	if !ok {
		cs.fail(doc, k, false, "xs:%s needs a base", k.name.Local)
	}
	base := cs.typeByQName(cs.resolveQName(doc, k, bv), doc, k)
	cs.requireBuilt(doc, k, base)
	td.base = base
	td.content = contentSimple
	attrKids := cs.children(doc, k)
	if k.is("extension") {
		td.method = derivExtension
		if base.final&derivExtension != 0 {
			cs.fail(doc, k, false, "the base type %s is final for extension", base.desc)
		}
		switch {
		case base.simple:
			td.st = base.st
		case base.content == contentSimple:
			td.st = base.st
		default:
			cs.fail(doc, k, false, "the base type %s of a simpleContent extension must be simple or have simple content", base.desc)
		}
		uses, _, wild := cs.attributeItems(doc, attrKids, td.desc)
		all := append(append([]*attributeUse(nil), base.attrs...), uses...)
		cs.setAttributes(doc, k, td, all, unionWildcards(wild, base.wildcard))
		return
	}
	td.method = derivRestriction
	if base.simple || base.content != contentSimple {
		cs.fail(doc, k, true, "a simpleContent restriction must restrict a complex type with simple content")
	}
	if base.final&derivRestriction != 0 {
		cs.fail(doc, k, false, "the base type %s is final for restriction", base.desc)
	}
	st := &simpleType{desc: td.desc, where: where{doc.base, k.line}}
	// Facets and an optional xs:simpleType come first, attributes after.
	var facetKids, rest []*xnode
	for _, c := range attrKids {
		switch c.name.Local {
		case "attribute", "attributeGroup", "anyAttribute":
			rest = append(rest, c)
		default:
			facetKids = append(facetKids, c)
		}
	}
	fk := &xnode{name: k.name, attrs: nil, parent: k, children: facetKids, line: k.line}
	cs.simpleRestriction(doc, fk, st, base.st)
	setLabel(st)
	td.st = st
	uses, prohibit, wild := cs.attributeItems(doc, rest, td.desc)
	cs.setAttributes(doc, k, td, restrictAttributes(base.attrs, uses, prohibit), wild)
}

// complexContent handles xs:complexContent.
func (cs *compileState) complexContent(doc *schemaDoc, cc *xnode, td *typeDef, tb *typeBuild) {
	kids := cs.children(doc, cc)
	if len(kids) != 1 || !kids[0].is("extension") && !kids[0].is("restriction") {
		cs.fail(doc, cc, false, "xs:complexContent needs one xs:extension or xs:restriction")
	}
	k := kids[0]
	bv, ok := k.attr("base")
	if !ok {
		cs.fail(doc, k, false, "xs:%s needs a base", k.name.Local)
	}
	base := cs.typeByQName(cs.resolveQName(doc, k, bv), doc, k)
	cs.requireBuilt(doc, k, base)
	if base.simple {
		cs.fail(doc, k, false, "the base type %s of complexContent must be a complex type", base.desc)
	}
	td.base = base
	p, uses, prohibit, wild := cs.contentAndAttributes(doc, k, cs.children(doc, k), td.desc)
	if k.is("restriction") {
		td.method = derivRestriction
		if base.final&derivRestriction != 0 {
			cs.fail(doc, k, false, "the base type %s is final for restriction", base.desc)
		}
		tb.particle = p
		cs.setAttributes(doc, k, td, restrictAttributes(base.attrs, uses, prohibit), wild)
		return
	}
	td.method = derivExtension
	if base.final&derivExtension != 0 {
		cs.fail(doc, k, false, "the base type %s is final for extension", base.desc)
	}
	if base.urType {
		cs.fail(doc, k, true, "a complexContent extension of xs:anyType is not supported (use a restriction)")
	}
	if base.content == contentSimple {
		cs.fail(doc, k, false, "complexContent cannot extend %s, which has simple content", base.desc)
	}
	bb := cs.tbuild[base]
	switch {
	case bb == nil || bb.particle == nil:
		tb.particle = p
	case p == nil:
		tb.particle = bb.particle
	default:
		tb.particle = &particle{min: 1, max: 1, kind: pSequence, children: []*particle{bb.particle, p}}
	}
	if bb != nil && bb.mixed {
		tb.mixed = true
	}
	all := append(append([]*attributeUse(nil), base.attrs...), uses...)
	cs.setAttributes(doc, k, td, all, unionWildcards(wild, base.wildcard))
}

// requireBuilt fails if the base type is still being built (a circular
// derivation).
func (cs *compileState) requireBuilt(doc *schemaDoc, n *xnode, base *typeDef) {
	if tb := cs.tbuild[base]; tb != nil && tb.state == building {
		cs.fail(doc, n, false, "type %s is derived from itself", base.desc)
	}
}

// restrictAttributes is the attribute uses of a restriction: the derived
// type's own, plus the base type's not redeclared or prohibited.
func restrictAttributes(base, own []*attributeUse, prohibit []qname) []*attributeUse {
	out := append([]*attributeUse(nil), own...)
outer:
	for _, b := range base {
		for _, o := range own {
			if o.decl.name == b.decl.name {
				continue outer
			}
		}
		for _, p := range prohibit {
			if p == b.decl.name {
				continue outer
			}
		}
		out = append(out, b)
	}
	return out
}

// setAttributes installs the attribute uses and wildcard of a type.
func (cs *compileState) setAttributes(doc *schemaDoc, n *xnode, td *typeDef, uses []*attributeUse, wild *wildcard) {
	td.attrs = uses
	td.wildcard = wild
	td.attrMap = make(map[qname]*attributeUse, len(uses))
	for _, u := range uses {
		if _, dup := td.attrMap[u.decl.name]; dup {
			cs.fail(doc, n, false, "attribute %s is declared twice in %s", u.decl.name, td.desc)
		}
		td.attrMap[u.decl.name] = u
		if u.decl.typ.idLike {
			td.hasID = true
		}
	}
}

// contentAndAttributes reads the model group and the attribute items of
// a complex type (or of its extension or restriction element).
func (cs *compileState) contentAndAttributes(doc *schemaDoc, parent *xnode, kids []*xnode, desc string) (*particle, []*attributeUse, []qname, *wildcard) {
	var p *particle
	i := 0
	if i < len(kids) {
		switch kids[i].name.Local {
		case "sequence", "choice", "all", "group":
			p = cs.particleFrom(doc, kids[i], desc, true)
			i++
		}
	}
	uses, prohibit, wild := cs.attributeItems(doc, kids[i:], desc)
	return p, uses, prohibit, wild
}

// attributeItems reads xs:attribute, xs:attributeGroup and xs:anyAttribute
// items, returning the uses, the prohibited names and the complete
// wildcard.
func (cs *compileState) attributeItems(doc *schemaDoc, kids []*xnode, desc string) ([]*attributeUse, []qname, *wildcard) {
	var uses []*attributeUse
	var prohibit []qname
	var own *wildcard
	var groupWilds []*wildcard
	for _, c := range kids {
		switch c.name.Local {
		case "attribute":
			u, prohibited := cs.attributeUse(doc, c, desc)
			if prohibited {
				prohibit = append(prohibit, u.decl.name)
				continue
			}
			uses = append(uses, u)
		case "attributeGroup":
			rv, ok := c.attr("ref")
			if !ok {
				cs.fail(doc, c, false, "xs:attributeGroup reference needs ref")
			}
			g := cs.attrGroup(cs.resolveQName(doc, c, rv), doc, c)
			uses = append(uses, g.uses...)
			prohibit = append(prohibit, g.prohibit...)
			if g.wild != nil {
				groupWilds = append(groupWilds, g.wild)
			}
		case "anyAttribute":
			if own != nil {
				cs.fail(doc, c, false, "more than one xs:anyAttribute")
			}
			own = cs.wildcardFrom(doc, c)
		default:
			cs.fail(doc, c, false, "xs:%s is not allowed here", c.name.Local)
		}
	}
	// The complete wildcard is the intersection of the local one and
	// those of the attribute groups (XML Schema 1.0, 3.4.2).
	complete := own
	for _, w := range groupWilds {
		if complete == nil {
			complete = w
		} else {
			complete = intersectWildcards(complete, w)
		}
	}
	return uses, prohibit, complete
}

// attributeUse builds an attribute use from an xs:attribute inside a type
// or attribute group.
func (cs *compileState) attributeUse(doc *schemaDoc, n *xnode, desc string) (*attributeUse, bool) {
	u := &attributeUse{}
	use, _ := n.attr("use")
	switch use {
	case "", "optional":
	case "required":
		u.required = true
	case "prohibited":
	default:
		cs.fail(doc, n, false, "invalid use %q", use)
	}
	if rv, ok := n.attr("ref"); ok {
		u.decl = cs.globalAttribute(cs.resolveQName(doc, n, rv), doc, n)
	} else {
		name, ok := n.attr("name")
		if !ok {
			cs.fail(doc, n, false, "xs:attribute needs a name or a ref")
		}
		qualified := doc.attrQualified
		if f, ok := n.attr("form"); ok {
			qualified = f == "qualified"
		}
		q := qname{local: name}
		if qualified {
			q.ns = doc.tns
		}
		d := &attributeDecl{name: q, where: where{doc.base, n.line}, desc: fmt.Sprintf("%s, attribute %q", desc, name)}
		// Local declarations carry their value constraint on the use.
		cs.fillAttribute(doc, n, d)
		u.decl = d
		u.valueConstraint = d.valueConstraint
		return u, use == "prohibited"
	}
	u.valueConstraint = cs.readConstraint(doc, n, "attribute "+u.decl.name.local, u.decl.typ)
	return u, use == "prohibited"
}

// attrGroup returns the attribute group definition q.
func (cs *compileState) attrGroup(q qname, doc *schemaDoc, n *xnode) *attrGroupDef {
	if g, ok := cs.aGroups[q]; ok {
		if g.state == building {
			cs.fail(doc, n, false, "attribute group %s refers to itself", q)
		}
		return g
	}
	raw, ok := cs.gAGroups[q]
	if !ok {
		cs.fail(doc, n, false, "attribute group %s is not declared", q)
	}
	g := &attrGroupDef{state: building}
	cs.aGroups[q] = g
	desc := fmt.Sprintf("%s: attributeGroup %q", raw.doc.base, q.local)
	g.uses, g.prohibit, g.wild = cs.attributeItems(raw.doc, cs.children(raw.doc, raw.node), desc)
	g.state = built
	return g
}

// group returns the model group definition q (its particle keeps group
// references unexpanded until content models are compiled).
func (cs *compileState) group(q qname, doc *schemaDoc, n *xnode) *groupDef {
	if g, ok := cs.groups[q]; ok {
		return g
	}
	raw, ok := cs.gGroups[q]
	if !ok {
		cs.fail(doc, n, false, "group %s is not declared", q)
	}
	g := &groupDef{name: q, doc: raw.doc, node: raw.node, state: building}
	cs.groups[q] = g
	kids := cs.children(raw.doc, raw.node)
	if len(kids) != 1 || !(kids[0].is("sequence") || kids[0].is("choice") || kids[0].is("all")) {
		cs.fail(raw.doc, raw.node, false, "xs:group needs one xs:sequence, xs:choice or xs:all")
	}
	desc := fmt.Sprintf("%s: group %q", raw.doc.base, q.local)
	g.particle = cs.particleFrom(raw.doc, kids[0], desc, false)
	g.state = built
	return g
}

// occurs reads minOccurs and maxOccurs.
func (cs *compileState) occurs(doc *schemaDoc, n *xnode) (int, int) {
	min, max := 1, 1
	if v, ok := n.attr("minOccurs"); ok {
		m, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || m < 0 {
			cs.fail(doc, n, false, "invalid minOccurs %q", v)
		}
		min = m
	}
	if v, ok := n.attr("maxOccurs"); ok {
		if strings.TrimSpace(v) == "unbounded" {
			max = -1
		} else {
			m, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || m < 0 {
				cs.fail(doc, n, false, "invalid maxOccurs %q", v)
			}
			max = m
		}
	}
	if max >= 0 && max < min {
		cs.fail(doc, n, false, "maxOccurs is less than minOccurs")
	}
	return min, max
}

// particleFrom builds a particle from xs:sequence, xs:choice, xs:all,
// xs:group (reference), xs:element or xs:any.
func (cs *compileState) particleFrom(doc *schemaDoc, n *xnode, desc string, top bool) *particle {
	min, max := cs.occurs(doc, n)
	p := &particle{min: min, max: max}
	switch n.name.Local {
	case "sequence", "choice", "all":
		p.kind = map[string]particleKind{"sequence": pSequence, "choice": pChoice, "all": pAll}[n.name.Local]
		for _, c := range cs.children(doc, n) {
			switch c.name.Local {
			case "element", "any", "sequence", "choice", "group":
				if p.kind == pAll && c.name.Local != "element" {
					cs.fail(doc, c, false, "xs:all may contain only xs:element")
				}
				p.children = append(p.children, cs.particleFrom(doc, c, desc, false))
			default:
				cs.fail(doc, c, false, "xs:%s is not allowed in xs:%s", c.name.Local, n.name.Local)
			}
		}
		if p.kind == pAll && !top && !n.parent.is("group") {
			cs.fail(doc, n, false, "xs:all must be the whole content model")
		}
	case "group":
		rv, ok := n.attr("ref")
		if !ok {
			cs.fail(doc, n, false, "a group reference needs ref")
		}
		g := cs.group(cs.resolveQName(doc, n, rv), doc, n)
		p.kind = pGroupRef
		p.group = g
		p.refDoc, p.refNode = doc, n
	case "element":
		p.kind = pElement
		if rv, ok := n.attr("ref"); ok {
			p.elem = cs.globalElement(cs.resolveQName(doc, n, rv), doc, n)
			break
		}
		name, ok := n.attr("name")
		if !ok {
			cs.fail(doc, n, false, "xs:element needs a name or a ref")
		}
		qualified := doc.elemQualified
		if f, ok := n.attr("form"); ok {
			qualified = f == "qualified"
		}
		q := qname{local: name}
		if qualified {
			q.ns = doc.tns
		}
		d := &elementDecl{name: q, where: where{doc.base, n.line}, desc: fmt.Sprintf("%s, element %q", desc, name)}
		cs.fillElement(doc, n, d)
		p.elem = d
	case "any":
		p.kind = pWildcard
		p.wild = cs.wildcardFrom(doc, n)
		p.wild.desc = fmt.Sprintf("%s, xs:any", desc)
	default:
		cs.fail(doc, n, false, "xs:%s is not a particle", n.name.Local)
	}
	return p
}

// expandGroups copies a particle tree, replacing group references by
// copies of the groups' particles (so that every occurrence is a distinct
// particle, as Unique Particle Attribution requires).
func (cs *compileState) expandGroups(p *particle, stack []*groupDef) *particle {
	if p == nil {
		return nil
	}
	if p.kind == pGroupRef {
		for _, g := range stack {
			if g == p.group {
				cs.fail(p.refDoc, p.refNode, false, "group %s refers to itself", g.name)
			}
		}
		inner := cs.expandGroups(p.group.particle, append(stack, p.group))
		c := *inner
		c.min, c.max = p.min, p.max
		if inner.min != 1 || inner.max != 1 {
			// The group's own occurrence is always 1 in XML Schema; keep
			// whatever it says by nesting.
			return &particle{min: p.min, max: p.max, kind: pSequence, children: []*particle{inner}}
		}
		return &c
	}
	c := *p
	if len(p.children) > 0 {
		c.children = make([]*particle, len(p.children))
		for i, ch := range p.children {
			c.children[i] = cs.expandGroups(ch, stack)
		}
	}
	return &c
}

// finishComplex compiles the content model of a complex type and decides
// its content type.
func (cs *compileState) finishComplex(td *typeDef) {
	tb := cs.tbuild[td]
	if td.content == contentSimple {
		return
	}
	p := cs.expandGroups(tb.particle, nil)
	if p != nil && p.kind == pAll && p.max > 1 {
		cs.fail(tb.doc, tb.node, false, "xs:all may not occur more than once")
	}
	m, err := compileModel(p)
	if err != nil {
		cs.fail(tb.doc, tb.node, strings.Contains(err.Error(), "not supported") || strings.Contains(err.Error(), "too large"), "%s: %v", td.desc, err)
	}
	td.model = m
	switch {
	case tb.mixed:
		td.content = contentMixed
	case m.empty:
		td.content = contentEmpty
	default:
		td.content = contentElements
	}
}

// substitutionGroups computes, for every global element, the elements
// that may substitute for it, honouring block="substitution" and blocked
// derivation methods on the head.
func (cs *compileState) substitutionGroups() {
	for _, d := range cs.elems {
		for h := d.substHead; h != nil; h = h.substHead {
			if h == d {
				raw := cs.gElems[d.name]
				cs.fail(raw.doc, raw.node, false, "element %s is in its own substitution group", d.name)
			}
			if h.block&derivSubstitution != 0 {
				break
			}
			if !derivedOK(d.typ, h.typ, h.block|h.typ.block) {
				continue
			}
			h.substs = append(h.substs, d)
		}
	}
	// Deterministic order: by name.
	for _, d := range cs.elems {
		sortDecls(d.substs)
	}
}

func sortDecls(ds []*elementDecl) {
	for i := 1; i < len(ds); i++ {
		for j := i; j > 0 && ds[j].name.String() < ds[j-1].name.String(); j-- {
			ds[j], ds[j-1] = ds[j-1], ds[j]
		}
	}
}

// derivedOK reports whether type d is validly derived from type b without
// using a blocked method.
func derivedOK(d, b *typeDef, blocked derivSet) bool {
	if d == b || b.urType {
		return true
	}
	for t := d; t != nil; t = t.base {
		if t == b {
			return true
		}
		if t.method&blocked != 0 {
			return false
		}
		if t.simple && b.simple && t.st != nil && b.st != nil {
			for s := t.st; s != nil; s = s.base {
				if s == b.st {
					return true
				}
			}
			for _, m := range b.st.members {
				if m == t.st {
					return true
				}
			}
		}
	}
	return false
}
