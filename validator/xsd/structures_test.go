package xsd

import (
	"strings"
	"testing"
)

// structureCase is a schema, a document and what libxml2 2.9.14 says:
// the line of its first validity error (0 when the document is valid) and
// the number of errors it reports. kinds lists our error codes in order.
// TestStructuresAgainstXmllint (libxml2 tag) re-checks line and count.
type structureCase struct {
	name   string
	schema string // the body of an xs:schema with targetNamespace "urn:t", prefix t
	doc    string
	line   int
	count  int
	kinds  []string
}

const schemaHead = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:t" targetNamespace="urn:t" elementFormDefault="qualified">
`

func (c structureCase) fullSchema() string {
	if strings.HasPrefix(c.schema, "<xs:schema") {
		return c.schema
	}
	return schemaHead + c.schema + "\n</xs:schema>\n"
}

var structureCases = []structureCase{
	{name: "sequence ok", schema: `<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="a"/><xs:element name="b" minOccurs="0" maxOccurs="2"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t">
<a/><b/><b/>
</r>`},
	{name: "sequence too many", schema: `<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="a"/><xs:element name="b" minOccurs="0" maxOccurs="2"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t">
<a/><b/><b/>
<b/>
<zz/>
</r>`, line: 3, count: 1, kinds: []string{"unexpected-element"}},
	{name: "sequence missing", schema: `<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="a"/><xs:element name="b"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t">
<a/>
</r>`, line: 1, count: 1, kinds: []string{"missing-elements"}},
	{name: "choice", schema: `<xs:element name="r"><xs:complexType><xs:choice maxOccurs="unbounded"><xs:element name="a"/><xs:element name="b"/></xs:choice></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t"><a/><b/><a/>
<c/></r>`, line: 2, count: 1, kinds: []string{"unexpected-element"}},
	{name: "counted group", schema: `<xs:element name="r"><xs:complexType><xs:sequence minOccurs="2" maxOccurs="3"><xs:element name="a"/><xs:element name="b" minOccurs="0"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t"><a/><b/><a/><a/><b/>
<a/></r>`, line: 2, count: 1, kinds: []string{"unexpected-element"}},
	{name: "counted group too few", schema: `<xs:element name="r"><xs:complexType><xs:sequence minOccurs="2" maxOccurs="3"><xs:element name="a"/><xs:element name="b" minOccurs="0"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t">
<a/><b/></r>`, line: 1, count: 1, kinds: []string{"missing-elements"}},
	{name: "optional repeated optional", schema: `<xs:element name="r"><xs:complexType><xs:sequence minOccurs="2" maxOccurs="2"><xs:element name="a" minOccurs="0"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t"><a/><a/>
<a/></r>`, line: 2, count: 1, kinds: []string{"unexpected-element"}},
	{name: "all any order", schema: `<xs:element name="r"><xs:complexType><xs:all><xs:element name="a"/><xs:element name="b"/><xs:element name="c" minOccurs="0"/></xs:all></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t"><b/><c/><a/></r>`},
	{name: "all missing", schema: `<xs:element name="r"><xs:complexType><xs:all><xs:element name="a"/><xs:element name="b"/></xs:all></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t">
<b/></r>`, line: 1, count: 1, kinds: []string{"missing-elements"}},
	{name: "all twice", schema: `<xs:element name="r"><xs:complexType><xs:all><xs:element name="a"/><xs:element name="b"/></xs:all></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t"><b/>
<b/><a/></r>`, line: 2, count: 1, kinds: []string{"unexpected-element"}},
	{name: "group ref", schema: `<xs:group name="g"><xs:sequence><xs:element name="a"/><xs:element name="b"/></xs:sequence></xs:group>
<xs:element name="r"><xs:complexType><xs:sequence><xs:group ref="t:g" maxOccurs="2"/><xs:element name="c"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t"><a/><b/><a/><b/>
<a/></r>`, line: 2, count: 1, kinds: []string{"unexpected-element"}},
	{name: "recursive elements", schema: `<xs:element name="r" type="t:T"/>
<xs:complexType name="T"><xs:sequence><xs:element name="n" type="t:T" minOccurs="0"/></xs:sequence><xs:attribute name="v" type="xs:int"/></xs:complexType>`,
		doc: `<r xmlns="urn:t"><n><n>
<n v="x"/></n></n></r>`, line: 2, count: 1, kinds: []string{"invalid-attribute-value"}},
	{name: "substitution group", schema: `<xs:element name="head" type="xs:string" abstract="true"/>
<xs:element name="m1" type="xs:string" substitutionGroup="t:head"/>
<xs:element name="m2" substitutionGroup="t:head"/>
<xs:element name="r"><xs:complexType><xs:sequence><xs:element ref="t:head" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t"><m1>x</m1><m2>y</m2>
<head>z</head></r>`, line: 2, count: 1, kinds: []string{"unexpected-element"}},
	{name: "substitution blocked", schema: `<xs:element name="head" type="xs:string" block="substitution"/>
<xs:element name="m1" type="xs:string" substitutionGroup="t:head"/>
<xs:element name="r"><xs:complexType><xs:sequence><xs:element ref="t:head" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t"><head>x</head>
<m1>y</m1></r>`, line: 2, count: 1, kinds: []string{"unexpected-element"}},
	{name: "wildcard strict lax skip", schema: `<xs:element name="d" type="xs:int"/>
<xs:element name="r"><xs:complexType><xs:sequence>
<xs:any namespace="urn:s" processContents="skip"/>
<xs:any namespace="urn:l" processContents="lax"/>
<xs:any namespace="##targetNamespace" processContents="strict"/>
</xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t" xmlns:s="urn:s" xmlns:l="urn:l">
<s:x><anything/></s:x>
<l:y><l:z/></l:y>
<d>x</d>
</r>`, line: 4, count: 1, kinds: []string{"invalid-element-value"}},
	{name: "strict wildcard undeclared", schema: `<xs:element name="r"><xs:complexType><xs:sequence><xs:any namespace="##other" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t" xmlns:o="urn:o">
<o:x><o:y/></o:x>
<o:z/>
</r>`, line: 2, count: 2, kinds: []string{"no-strict-declaration", "no-strict-declaration"}},
	{name: "other excludes no namespace", schema: `<xs:element name="r"><xs:complexType><xs:sequence><xs:any namespace="##other" processContents="skip"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<t:r xmlns:t="urn:t">
<x/>
</t:r>`, line: 2, count: 1, kinds: []string{"unexpected-element"}},
	{name: "local and list wildcards", schema: `<xs:element name="r"><xs:complexType><xs:sequence><xs:any namespace="##local urn:a" processContents="skip" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<t:r xmlns:t="urn:t" xmlns:a="urn:a" xmlns:b="urn:b"><x/><a:y/>
<b:z/></t:r>`, line: 2, count: 1, kinds: []string{"unexpected-element"}},
	{name: "lax wildcard validates declared", schema: `<xs:element name="v" type="xs:int"/>
<xs:element name="r"><xs:complexType><xs:sequence><xs:any processContents="lax" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t"><x xmlns="urn:x"><v xmlns="urn:t">1</v></x>
<x xmlns="urn:x"><v xmlns="urn:t">bad</v></x></r>`, line: 2, count: 1, kinds: []string{"invalid-element-value"}},
	{name: "anyAttribute", schema: `<xs:attribute name="g" type="xs:int"/>
<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="a" maxOccurs="unbounded"><xs:complexType><xs:anyAttribute namespace="##targetNamespace" processContents="lax"/></xs:complexType></xs:element>
<xs:element name="s" maxOccurs="unbounded"><xs:complexType><xs:anyAttribute namespace="##other" processContents="strict"/></xs:complexType></xs:element></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t" xmlns:t="urn:t" xmlns:o="urn:o">
<a t:g="1" t:h="x"/>
<a t:g="x"/>
<a o:z="1"/>
<s o:z="1"/>
</r>`, line: 3, count: 3, kinds: []string{"invalid-attribute-value", "unexpected-attribute", "unexpected-attribute"}},
	{name: "empty content", schema: `<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="e" maxOccurs="unbounded"><xs:complexType><xs:attribute name="a"/></xs:complexType></xs:element></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t"><e a="1"/><e><!-- ok --></e>
<e> </e>
<e><x/></e>
</r>`, line: 2, count: 2, kinds: []string{"not-empty", "not-empty"}},
	{name: "mixed content", schema: `<xs:element name="r"><xs:complexType mixed="true"><xs:sequence><xs:element name="b" minOccurs="0"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t">text <b>bold</b> more
<b/></r>`, line: 2, count: 1, kinds: []string{"unexpected-element"}},
	{name: "element-only text", schema: `<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="a"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t">
  <!-- fine --> <?pi fine?>
  <a/>
  stray
</r>`, line: 1, count: 1, kinds: []string{"text-not-allowed"}},
	{name: "simple content extension", schema: `<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="p" maxOccurs="unbounded"><xs:complexType><xs:simpleContent><xs:extension base="xs:decimal"><xs:attribute name="u" type="xs:token" use="required"/></xs:extension></xs:simpleContent></xs:complexType></xs:element></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t"><p u="kg">1.5</p>
<p>2</p>
<p u="kg">x</p>
<p u="kg"><b/></p></r>`, line: 2, count: 4, kinds: []string{"missing-attribute", "invalid-element-value", "element-in-simple-content", "invalid-element-value"}},
	{name: "simple content restriction", schema: `<xs:complexType name="P"><xs:simpleContent><xs:extension base="xs:decimal"><xs:attribute name="u" type="xs:token"/></xs:extension></xs:simpleContent></xs:complexType>
<xs:complexType name="Q"><xs:simpleContent><xs:restriction base="t:P"><xs:maxInclusive value="10"/></xs:restriction></xs:simpleContent></xs:complexType>
<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="q" type="t:Q" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t"><q u="a">5</q>
<q>11</q></r>`, line: 2, count: 1, kinds: []string{"invalid-element-value"}},
	{name: "complex extension", schema: `<xs:complexType name="B"><xs:sequence><xs:element name="a"/></xs:sequence><xs:attribute name="x"/></xs:complexType>
<xs:complexType name="D"><xs:complexContent><xs:extension base="t:B"><xs:sequence><xs:element name="b"/></xs:sequence><xs:attribute name="y"/></xs:extension></xs:complexContent></xs:complexType>
<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="d" type="t:D" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t"><d x="1" y="2"><a/><b/></d>
<d><b/></d></r>`, line: 2, count: 1, kinds: []string{"unexpected-element"}},
	{name: "complex restriction", schema: `<xs:complexType name="B"><xs:sequence><xs:element name="a" minOccurs="0"/></xs:sequence><xs:attribute name="x"/><xs:attribute name="z"/></xs:complexType>
<xs:complexType name="D"><xs:complexContent><xs:restriction base="t:B"><xs:sequence><xs:element name="a"/></xs:sequence><xs:attribute name="z" use="prohibited"/></xs:restriction></xs:complexContent></xs:complexType>
<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="d" type="t:D" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t"><d x="1"><a/></d>
<d z="1"><a/></d></r>`, line: 2, count: 1, kinds: []string{"unexpected-attribute"}},
	{name: "attribute group and fixed", schema: `<xs:attributeGroup name="ag"><xs:attribute name="a" type="xs:int" use="required"/><xs:attribute name="f" type="xs:int" fixed="5"/></xs:attributeGroup>
<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="e" maxOccurs="unbounded"><xs:complexType><xs:attributeGroup ref="t:ag"/></xs:complexType></xs:element></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t"><e a="1" f=" 5"/>
<e a="1" f="6"/>
<e/></r>`, line: 2, count: 2, kinds: []string{"fixed-value-mismatch", "missing-attribute"}},
	{name: "element fixed and default", schema: `<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="f" type="xs:int" fixed="5" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t"><f>5</f><f/><f> 5 </f>
<f>6</f></r>`, line: 1, count: 2, kinds: []string{"invalid-element-value", "fixed-value-mismatch"}},
	{name: "mixed fixed", schema: `<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="e" fixed="abc" maxOccurs="unbounded"><xs:complexType mixed="true"><xs:sequence><xs:element name="b" minOccurs="0"/></xs:sequence></xs:complexType></xs:element></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t">
<e>ab<b/>c</e>
<e>abd</e>
<e/>
<e><b/></e>
<e> abc</e>
</r>`, line: 3, count: 3, kinds: []string{"fixed-value-mismatch", "fixed-value-mismatch", "fixed-value-mismatch"}},
	{name: "nillable", schema: `<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="n" type="xs:int" nillable="true" maxOccurs="unbounded"/><xs:element name="m" type="xs:int" minOccurs="0"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><n xsi:nil="true"/><n xsi:nil="false">1</n>
<n xsi:nil="true">1</n>
<m xsi:nil="true"/></r>`, line: 2, count: 3, kinds: []string{"nil", "nil", "invalid-element-value"}},
	{name: "nilled content", schema: `<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="n" type="xs:int" nillable="true" maxOccurs="unbounded"/><xs:element name="c" nillable="true" maxOccurs="unbounded"><xs:complexType><xs:sequence><xs:element name="x" minOccurs="0"/></xs:sequence></xs:complexType></xs:element></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<n xsi:nil="true"> </n>
<n xsi:nil="true"><!--c--></n>
<n xsi:nil="yes"/>
<c xsi:nil="true">
</c>
<c xsi:nil="true"><x/></c>
</r>`, line: 2, count: 5, kinds: []string{"nil", "invalid-attribute-value", "invalid-element-value", "nil", "nil"}},
	{name: "xsi:type", schema: `<xs:complexType name="B"><xs:sequence><xs:element name="a"/></xs:sequence></xs:complexType>
<xs:complexType name="D"><xs:complexContent><xs:extension base="t:B"><xs:sequence><xs:element name="b"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
<xs:complexType name="O"><xs:sequence><xs:element name="o"/></xs:sequence></xs:complexType>
<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="e" type="t:B" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t" xmlns:t="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><e xsi:type="t:D"><a/><b/></e>
<e xsi:type="t:O"><o/></e>
<e xsi:type="t:Nope"/>
<e><a/></e></r>`, line: 2, count: 4, kinds: []string{"xsi-type", "unexpected-element", "xsi-type", "missing-elements"}},
	{name: "abstract", schema: `<xs:complexType name="A" abstract="true"><xs:sequence/></xs:complexType>
<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="e" type="t:A"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t">
<e/></r>`, line: 2, count: 1, kinds: []string{"abstract"}},
	{name: "xsi attributes", schema: `<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="e" type="xs:string" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:t x.xsd" xsi:noNamespaceSchemaLocation="y.xsd"><e xsi:schemaLocation="a b">x</e>
<e xsi:foo="1">x</e></r>`, line: 2, count: 1, kinds: []string{"unexpected-attribute"}},
	{name: "unqualified locals", schema: `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:t" targetNamespace="urn:t">
<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="a"/></xs:sequence><xs:attribute name="x"/></xs:complexType></xs:element></xs:schema>`,
		doc: `<t:r xmlns:t="urn:t" x="1"><a/></t:r>
`},
	{name: "unqualified locals, qualified used", schema: `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:t" targetNamespace="urn:t">
<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="a"/></xs:sequence></xs:complexType></xs:element></xs:schema>`,
		doc: `<r xmlns="urn:t">
<a/></r>`, line: 2, count: 1, kinds: []string{"unexpected-element"}},
	{name: "qualified attributes", schema: `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:t" targetNamespace="urn:t" attributeFormDefault="qualified">
<xs:element name="r"><xs:complexType><xs:attribute name="x"/></xs:complexType></xs:element></xs:schema>`,
		doc: `<t:r xmlns:t="urn:t" t:x="1"
x="2"/>`, line: 2, count: 1, kinds: []string{"unexpected-attribute"}},
	{name: "root undeclared", schema: `<xs:element name="r"/>`,
		doc: `<x xmlns="urn:t"><anything/></x>`, line: 1, count: 1, kinds: []string{"no-root-declaration"}},
	{name: "unexpected skips rest of parent", schema: `<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="a" type="xs:int" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t"><a>1</a>
<b/>
<a>x</a>
text
</r>`, line: 2, count: 1, kinds: []string{"unexpected-element"}},
	{name: "list and union", schema: `<xs:simpleType name="L"><xs:list itemType="xs:int"/></xs:simpleType>
<xs:simpleType name="L2"><xs:restriction base="t:L"><xs:maxLength value="2"/></xs:restriction></xs:simpleType>
<xs:simpleType name="U"><xs:union memberTypes="xs:int xs:boolean"/></xs:simpleType>
<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="l" type="t:L2" maxOccurs="unbounded"/><xs:element name="u" type="t:U" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t"><l> 1  2 </l>
<l>1 2 3</l>
<l>1 x</l>
<u>true</u><u> 5 </u>
<u>maybe</u></r>`, line: 2, count: 5, kinds: []string{"invalid-element-value", "invalid-element-value", "invalid-element-value", "invalid-element-value", "invalid-element-value"}},
	{name: "facets", schema: `<xs:simpleType name="D"><xs:restriction base="xs:decimal"><xs:totalDigits value="4"/><xs:fractionDigits value="2"/><xs:minExclusive value="0"/><xs:maxExclusive value="100"/></xs:restriction></xs:simpleType>
<xs:simpleType name="S"><xs:restriction base="xs:string"><xs:length value="3"/></xs:restriction></xs:simpleType>
<xs:simpleType name="E"><xs:restriction base="xs:token"><xs:enumeration value="a b"/></xs:restriction></xs:simpleType>
<xs:element name="r"><xs:complexType><xs:sequence><xs:element name="d" type="t:D" maxOccurs="unbounded"/><xs:element name="s" type="t:S" maxOccurs="unbounded"/><xs:element name="e" type="t:E" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>`,
		doc: `<r xmlns="urn:t"><d>12.34</d>
<d>1.234</d>
<d>100</d>
<d>0</d>
<s>abc</s>
<s>ab</s>
<e> a  b </e>
<e>ab</e></r>`, line: 2, count: 5, kinds: []string{"invalid-element-value", "invalid-element-value", "invalid-element-value", "invalid-element-value", "invalid-element-value"}},
}

func TestStructures(t *testing.T) {
	for _, c := range structureCases {
		t.Run(c.name, func(t *testing.T) {
			s := compileString(t, c.fullSchema())
			errs, err := s.Validate(strings.NewReader(c.doc))
			if err != nil {
				t.Fatal(err)
			}
			line := 0
			if len(errs) > 0 {
				line = errs[0].Line
			}
			var kinds []string
			for _, e := range errs {
				kinds = append(kinds, e.Kind.Code())
			}
			if line != c.line || len(errs) != c.count || strings.Join(kinds, " ") != strings.Join(c.kinds, " ") {
				t.Errorf("first line %d, %d errors %v; want line %d, %d errors %v", line, len(errs), kinds, c.line, c.count, c.kinds)
				for _, e := range errs {
					t.Logf("  %v", e)
				}
			}
		})
	}
}
