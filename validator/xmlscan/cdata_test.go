package xmlscan

import (
	"io"
	"strings"
	"testing"
)

// TestCDATAFlag: a CDATA section is a Text token marked CDATA; other text
// is not, including text that looks like a CDATA section's length.
func TestCDATAFlag(t *testing.T) {
	sc := NewScanner(strings.NewReader("<a>x<![CDATA[]]>&#9;&#9;&#9;&#9;<![CDATA[<b>]]>y</a>"))
	var got []string
	for {
		tok, err := sc.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if tok.Kind == Text {
			got = append(got, map[bool]string{true: "cdata:", false: "text:"}[tok.CDATA]+string(tok.Data))
		}
	}
	want := "text:x|cdata:|text:\t\t\t\t|cdata:<b>|text:y"
	if s := strings.Join(got, "|"); s != want {
		t.Errorf("got %q, want %q", s, want)
	}
}
