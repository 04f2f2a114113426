package xmlscan

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// dump renders every token of doc, one per line, for comparisons:
//
//	S 1:1-1:4 d1 {ns}a @x=1(1:4) ns:p=u
//	T 1:4-1:6 d1 "hi"
//
// and ends with "EOF" or "ERR line:col: msg".
func dump(r io.Reader, lim Limits) string {
	var b strings.Builder
	s := NewScannerLimits(r, lim)
	for {
		t, err := s.Next()
		if err != nil {
			if err == io.EOF {
				b.WriteString("EOF")
			} else {
				b.WriteString("ERR " + err.Error())
			}
			return b.String()
		}
		b.WriteString(tokString(t))
		b.WriteByte('\n')
	}
}

func posString(p Pos) string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

func tokString(t *Token) string {
	span := posString(t.Pos) + "-" + posString(t.End)
	switch t.Kind {
	case StartElement:
		var b strings.Builder
		fmt.Fprintf(&b, "S %s d%d %s", span, t.Depth, nameString(t.Name))
		if t.SelfClosing {
			b.WriteString(" /")
		}
		for _, d := range t.NSDecls {
			fmt.Fprintf(&b, " ns:%s=%s(%s)", d.Prefix, d.URI, posString(d.Pos))
		}
		for _, a := range t.Attrs {
			fmt.Fprintf(&b, " @%s=%q(%s)", nameString(a.Name), a.Value, posString(a.Pos))
		}
		return b.String()
	case EndElement:
		return fmt.Sprintf("E %s d%d %s", span, t.Depth, nameString(t.Name))
	case Text:
		return fmt.Sprintf("T %s d%d %q", span, t.Depth, t.Data)
	case Comment:
		return fmt.Sprintf("C %s d%d %q", span, t.Depth, t.Data)
	case ProcInst:
		return fmt.Sprintf("P %s d%d %s %q", span, t.Depth, t.Target, t.Data)
	case Doctype:
		return fmt.Sprintf("D %s %q", span, t.Data)
	}
	return fmt.Sprintf("?%d", t.Kind)
}

func nameString(n Name) string {
	s := n.Local
	if n.Prefix != "" {
		s = n.Prefix + ":" + s
	}
	if n.Space != "" {
		s = "{" + n.Space + "}" + s
	}
	return s
}

// scanAll returns the error ending the scan of doc (nil if well-formed).
func scanAll(doc []byte) error {
	s := NewScanner(bytes.NewReader(doc))
	for {
		_, err := s.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func syntaxErr(t *testing.T, err error) *SyntaxError {
	t.Helper()
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("error %v (%T) is not a *SyntaxError", err, err)
	}
	return se
}
