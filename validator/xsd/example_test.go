package xsd_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/rscheck/rscheck/validator/xmlscan"
	"github.com/rscheck/rscheck/validator/xsd"
)

const exampleSchema = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"
    targetNamespace="urn:example" elementFormDefault="qualified">
  <xs:element name="list">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="item" maxOccurs="unbounded">
          <xs:complexType>
            <xs:attribute name="size" type="xs:nonNegativeInteger"/>
          </xs:complexType>
        </xs:element>
      </xs:sequence>
    </xs:complexType>
  </xs:element>
</xs:schema>`

func ExampleSchema_Validate() {
	c := xsd.NewCompiler()
	c.AddResource("example.xsd", []byte(exampleSchema))
	s, err := c.Compile("example.xsd")
	if err != nil {
		panic(err)
	}
	errs, err := s.Validate(strings.NewReader(`<list xmlns="urn:example">
  <item size="-1"/>
  <other/>
</list>`))
	if err != nil {
		panic(err) // not well-formed
	}
	for _, e := range errs {
		fmt.Printf("%d: %s: %s\n", e.Line, e.Kind.Code(), e.Message)
	}
	// Output:
	// 2: invalid-attribute-value: attribute size="-1" is not a valid xs:nonNegativeInteger
	// 3: unexpected-element: element <other> is not allowed here; expected <item>
}

// The push API: the same tokens can feed other checks too.
func ExampleValidator() {
	c := xsd.NewCompiler()
	c.AddResource("example.xsd", []byte(exampleSchema))
	s, err := c.Compile("example.xsd")
	if err != nil {
		panic(err)
	}
	sc := xmlscan.NewScanner(strings.NewReader(`<list xmlns="urn:example"/>`))
	v := s.NewValidator(sc, func(e *xsd.Error) {
		if k, ok := e.Kind.(*xsd.MissingElements); ok {
			fmt.Println(e.Path, "misses", k.Expected[0].Name.Local)
		}
	})
	for {
		t, err := sc.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
		v.Token(t)
	}
	v.Close()
	// Output:
	// /list misses item
}
