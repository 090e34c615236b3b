package worker

import (
	"github.com/pixgate/pixgate/providerclient"
)

// providers finds one of the process's providers by name; a *fleet.Fleet
// is one.
type providers interface {
	Provider(name string) (providerclient.Connector, bool)
}

// providerAt is the provider recorded on a transaction: its reads, sends
// and resends go there, whatever the routes say now. A process with one
// provider that is no fleet has only it. A name the process does not have
// (a provider record left out at start) is unavailable: the transaction
// waits, retried and touched, until the provider is back.
func (w *Worker) providerAt(name string) (Provider, error) {
	f, ok := w.provider.(providers)
	if !ok {
		return w.provider, nil
	}
	if name == "" {
		name = providerclient.DefaultName
	}
	if p, ok := f.Provider(name); ok {
		return p, nil
	}
	return nil, &providerclient.Error{Op: "find provider", Kind: providerclient.ErrUnavailable,
		Message: "provider " + name + " is not configured in this process"}
}

// everyProvider is each of the process's providers, the default first.
func (w *Worker) everyProvider() []Provider {
	f, ok := w.provider.(interface {
		Providers() []providerclient.Connector
	})
	if !ok {
		return []Provider{w.provider}
	}
	var out []Provider
	for _, c := range f.Providers() {
		out = append(out, c)
	}
	return out
}

// severalProviders reports whether the process has a fleet of named
// providers, whose answers are checked against the provider each record
// names; a process with one provider that is no fleet has only it.
func (w *Worker) severalProviders() bool {
	_, ok := w.provider.(providers)
	return ok
}

// nameOf is the name of one of the process's providers (a fleet's
// providers each have theirs); the default's for one that has none.
func nameOf(p Provider) string {
	if n, ok := p.(interface{ Name() string }); ok {
		return n.Name()
	}
	return providerclient.DefaultName
}
