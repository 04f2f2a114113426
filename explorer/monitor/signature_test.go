package monitor_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/rscheck/rscheck/explorer/monitor"
)

func TestSignature(t *testing.T) {
	body := []byte("<urlset/>")
	for _, method := range []string{"sha1", "sha256", "sha384", "sha512"} {
		sig, err := monitor.Sign(method, "s3cret", body)
		if err != nil || !strings.HasPrefix(sig, method+"=") {
			t.Fatalf("Sign(%s): %q %v", method, sig, err)
		}
		if err := monitor.VerifySignature(sig, "s3cret", body); err != nil {
			t.Errorf("%s: %v", method, err)
		}
		if err := monitor.VerifySignature(strings.ToUpper(sig[:len(method)])+sig[len(method):], "s3cret", body); err != nil {
			t.Errorf("%s in upper case: %v", method, err)
		}
		if err := monitor.VerifySignature(sig, "other", body); err == nil {
			t.Errorf("%s: another secret verifies", method)
		}
		if err := monitor.VerifySignature(sig, "s3cret", append(body, ' ')); err == nil {
			t.Errorf("%s: another body verifies", method)
		}
	}
	// The HMAC-SHA256 of "<urlset/>" with the key "s3cret", computed
	// independently: printf '<urlset/>' | openssl dgst -sha256 -hmac s3cret
	const want = "sha256=9460bc0eac299ad86c74267bc3e5f3dbe04551fc82b2b9ff295ff27c3feb2e6e"
	if sig, _ := monitor.Sign("sha256", "s3cret", body); sig != want {
		t.Errorf("Sign = %s, want %s", sig, want)
	}
	for _, v := range []string{"", "sha256", "md5=d41d8cd98f00b204e9800998ecf8427e", "sha256=zz", "sha256=00"} {
		err := monitor.VerifySignature(v, "s3cret", body)
		if err == nil {
			t.Errorf("%q verifies", v)
		}
		if (v == "") != errors.Is(err, monitor.ErrNoSignature) {
			t.Errorf("%q: %v", v, err)
		}
	}
	if _, err := monitor.Sign("md5", "k", body); err == nil {
		t.Error("Sign accepts md5")
	}
}
