package xmlscan

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"
)

// FuzzScanner checks that the scanner never panics or loops, that token
// positions only move forward and agree with an independent line count,
// that errors are sticky, and that the read sizes do not change anything.
func FuzzScanner(f *testing.F) {
	// The ResourceSync examples the project checks against xmllint.
	for _, pat := range []string{"*.xml", "*/*.xml"} {
		files, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "reference", "schemas", "xmllint-tests", pat))
		for _, name := range files {
			if b, err := os.ReadFile(name); err == nil && len(b) < 8<<10 {
				f.Add(b)
			}
		}
	}
	for _, tt := range tokenTests {
		f.Add([]byte(tt.doc))
	}
	for _, tt := range errorTests {
		f.Add([]byte(tt.doc))
	}
	g := newDocGen(7)
	for i := 0; i < 20; i++ {
		f.Add(g.doc())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkScan(t, data)
	})
}

func checkScan(t *testing.T, data []byte) {
	lim := Limits{MaxTokenBytes: 1 << 16}
	s := NewScannerLimits(bytes.NewReader(data), lim)
	var prev Token
	var err error
	n := 0
	for ; ; n++ {
		if n > 4*len(data)+10 {
			t.Fatalf("more tokens (%d) than the input can hold", n)
		}
		var tok *Token
		tok, err = s.Next()
		if err != nil {
			break
		}
		if tok.Kind < StartElement || tok.Kind > Doctype {
			t.Fatalf("token kind %d", tok.Kind)
		}
		if tok.End.Offset < tok.Pos.Offset || tok.End.Line < tok.Pos.Line {
			t.Fatalf("token ends before it starts: %s", tokString(tok))
		}
		sameSpan := tok.Kind == EndElement && prev.Kind == StartElement && prev.SelfClosing && tok.Pos == prev.Pos && tok.End == prev.End
		if n > 0 && !sameSpan && (tok.Pos != prev.End) {
			t.Fatalf("token %s does not start where the previous one ended (%v)", tokString(tok), prev.End)
		}
		if tok.Kind == StartElement && tok.End.Offset == tok.Pos.Offset {
			t.Fatalf("empty start tag %s", tokString(tok))
		}
		for _, a := range tok.Attrs {
			if a.Pos.Offset <= tok.Pos.Offset || a.Pos.Offset >= tok.End.Offset {
				t.Fatalf("attribute %s outside its tag %s", a.Name.Local, tokString(tok))
			}
		}
		checkLineCol(t, data, tok.Pos)
		checkLineCol(t, data, tok.End)
		prev = *tok
		prev.Attrs, prev.NSDecls, prev.Data = nil, nil, nil
	}
	if err != io.EOF {
		var se *SyntaxError
		if se = syntaxErr(t, err); se.Pos.Offset < prev.End.Offset && n > 0 {
			t.Fatalf("error %v before the end of the last token %v", err, prev.End)
		}
		checkLineCol(t, data, se.Pos)
	}
	for i := 0; i < 2; i++ {
		if _, err2 := s.Next(); err2 != err {
			t.Fatalf("Next after %v returned %v", err, err2)
		}
	}
	if a, b := dump(bytes.NewReader(data), lim), dump(iotest.OneByteReader(bytes.NewReader(data)), lim); a != b {
		t.Fatalf("one-byte reads change the result:\n%s\n----\n%s", a, b)
	}
}

// checkLineCol recomputes the line and column of p from its offset, for
// plain UTF-8 input (offsets of transcoded input are not input offsets).
func checkLineCol(t *testing.T, data []byte, p Pos) {
	if len(data) >= 2 && (data[0] == 0xFE || data[0] == 0xFF || data[0] == 0 || data[1] == 0) ||
		bytes.HasPrefix(data, []byte("\xEF\xBB\xBF")) || bytes.Contains(data[:min(len(data), 200)], []byte("encoding")) {
		return
	}
	if p.Offset < 0 || p.Offset > int64(len(data)) {
		t.Fatalf("position %+v outside the input (%d bytes)", p, len(data))
	}
	line, start := 1, 0
	for i := 0; i < int(p.Offset); i++ {
		switch data[i] {
		case '\n':
			line, start = line+1, i+1
		case '\r':
			line, start = line+1, i+1
			if i+1 < len(data) && data[i+1] == '\n' {
				if i+1 < int(p.Offset) {
					i++
					start = i + 1
				}
			}
		}
	}
	if p.Line != line || p.Col != int(p.Offset)-start+1 {
		t.Fatalf("position %+v: want line %d col %d", p, line, int(p.Offset)-start+1)
	}
}

// TestFuzzSeeds runs the fuzz checks over generated documents and their
// mutations, so that plain "go test" covers them.
func TestFuzzSeeds(t *testing.T) {
	g := newDocGen(8)
	n := 2000
	if testing.Short() {
		n = 200
	}
	for i := 0; i < n; i++ {
		d := g.doc()
		if i%2 == 1 {
			d = g.mutate(d)
		}
		checkScan(t, d)
	}
}
