// Package connectors builds a provider's connector from its Config: the
// contract's connector (Config.Kind) wrapped in the retry, breaker and
// metrics layers every provider gets. It is the one place that knows every
// contract, so that nothing above providerclient names one.
package connectors

import (
	"fmt"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/efi"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/woovi"
)

// Kinds lists the contracts Open knows.
var Kinds = []string{providerclient.KindFamily, providerclient.KindEfi, providerclient.KindWoovi}

// Open returns the wrapped connector of cfg. Its errors name the setting at
// fault and never quote a secret.
func Open(cfg providerclient.Config) (providerclient.Connector, error) {
	cfg = cfg.WithDefaults()
	c, err := Bare(cfg)
	if err != nil {
		return nil, err
	}
	return providerclient.Wrap(c, cfg), nil
}

// Bare returns the contract's connector of cfg without the layers.
func Bare(cfg providerclient.Config) (providerclient.Connector, error) {
	cfg = cfg.WithDefaults()
	switch cfg.Kind {
	case providerclient.KindFamily:
		return family.NewConnector(cfg), nil
	case providerclient.KindEfi:
		return efi.New(cfg)
	case providerclient.KindWoovi:
		return woovi.New(cfg)
	}
	return nil, fmt.Errorf("provider %q: unknown kind %q (known: %v)", cfg.Name, cfg.Kind, Kinds)
}
