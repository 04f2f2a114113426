package monitor

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"strings"
)

// SignatureHeader is the header in which a hub signs a delivery with the
// subscription's secret (WebSub §7.1).
const SignatureHeader = "X-Hub-Signature"

// signatureMethods are the recognized algorithm names of WebSub §7.1.1.
var signatureMethods = map[string]func() hash.Hash{
	"sha1":   sha1.New,
	"sha256": sha256.New,
	"sha384": sha512.New384,
	"sha512": sha512.New,
}

// ErrNoSignature is returned by VerifySignature for a delivery without
// an X-Hub-Signature header.
var ErrNoSignature = errors.New("no " + SignatureHeader + " header")

// Sign returns the X-Hub-Signature value of body for a secret:
// "method=hex(HMAC(secret, body))". method is one of sha1, sha256, sha384
// and sha512.
func Sign(method, secret string, body []byte) (string, error) {
	newHash, ok := signatureMethods[method]
	if !ok {
		return "", fmt.Errorf("unknown signature method %q (want sha1, sha256, sha384 or sha512)", method)
	}
	mac := hmac.New(newHash, []byte(secret))
	mac.Write(body)
	return method + "=" + hex.EncodeToString(mac.Sum(nil)), nil
}

// VerifySignature checks the value of an X-Hub-Signature header against
// body and the secret of the subscription. It returns nil when the value
// has the form method=signature, names a recognized method and is the
// HMAC of body; otherwise an error that says, for a person, what is
// wrong (ErrNoSignature for an empty value). The comparison takes the
// same time whatever the signature, so that it tells a forger nothing.
func VerifySignature(value, secret string, body []byte) error {
	value = strings.TrimSpace(value)
	if value == "" {
		return ErrNoSignature
	}
	method, sig, ok := strings.Cut(value, "=")
	if !ok {
		return fmt.Errorf("%s %q is not of the form method=signature", SignatureHeader, clip(value, 80))
	}
	method = strings.ToLower(strings.TrimSpace(method))
	newHash, known := signatureMethods[method]
	if !known {
		return fmt.Errorf("%s uses method %q, which is not one of the recognized sha1, sha256, sha384 and sha512", SignatureHeader, clip(method, 40))
	}
	got, err := hex.DecodeString(strings.TrimSpace(sig))
	if err != nil {
		return fmt.Errorf("the %s signature is not hexadecimal", SignatureHeader)
	}
	mac := hmac.New(newHash, []byte(secret))
	mac.Write(body)
	if !hmac.Equal(got, mac.Sum(nil)) {
		return fmt.Errorf("the %s %s signature is not the HMAC of the body with the subscription's secret", SignatureHeader, method)
	}
	return nil
}

// newSecret returns a random secret for a subscription: 32 random bytes,
// hex-encoded (64 characters, below the 200 bytes WebSub allows).
func newSecret() string { return randomHex(32) }

// randomHex returns n random bytes, hex-encoded. crypto/rand does not
// fail on the platforms Go supports.
func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// clip shortens s to at most n bytes for a message, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
