package xsd

import (
	"bytes"
	"io"

	"github.com/rscheck/rscheck/validator/xmlscan"
)

const (
	xsdNS = "http://www.w3.org/2001/XMLSchema"
	xsiNS = "http://www.w3.org/2001/XMLSchema-instance"
	xmlNS = "http://www.w3.org/XML/1998/namespace"
)

// xnode is an element of a schema document.
type xnode struct {
	name     xmlscan.Name
	attrs    []xmlscan.Attr
	ns       []xmlscan.NSDecl
	parent   *xnode
	children []*xnode
	line     int
}

// attr returns the value of the unqualified attribute local.
func (n *xnode) attr(local string) (string, bool) {
	for _, a := range n.attrs {
		if a.Name.Space == "" && a.Name.Local == local {
			return a.Value, true
		}
	}
	return "", false
}

// lookup resolves a prefix in the scope of n.
func (n *xnode) lookup(prefix string) (string, bool) {
	if prefix == "xml" {
		return xmlNS, true
	}
	for m := n; m != nil; m = m.parent {
		for _, d := range m.ns {
			if d.Prefix == prefix {
				return d.URI, true
			}
		}
	}
	if prefix == "" {
		return "", true
	}
	return "", false
}

// is reports whether n is the XSD element local.
func (n *xnode) is(local string) bool { return n.name.Space == xsdNS && n.name.Local == local }

// parseSchemaXML reads a schema document into a tree.
func parseSchemaXML(data []byte) (*xnode, error) {
	sc := xmlscan.NewScanner(bytes.NewReader(data))
	var root, cur *xnode
	for {
		t, err := sc.Next()
		if err == io.EOF {
			return root, nil
		}
		if err != nil {
			return nil, err
		}
		switch t.Kind {
		case xmlscan.StartElement:
			n := &xnode{
				name:   t.Name,
				attrs:  append([]xmlscan.Attr(nil), t.Attrs...),
				ns:     append([]xmlscan.NSDecl(nil), t.NSDecls...),
				parent: cur,
				line:   t.Pos.Line,
			}
			if cur == nil {
				root = n
			} else {
				cur.children = append(cur.children, n)
			}
			cur = n
		case xmlscan.EndElement:
			if cur != nil {
				cur = cur.parent
			}
		}
	}
}
