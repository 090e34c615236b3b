package storage_test

import (
	"context"
	"net/url"
	"sync"
	"testing"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// Several processes starting at once against a database that does not
// exist yet must all come up: whichever creates it, the others carry on.
func TestEnsureDatabaseConcurrently(t *testing.T) {
	ctx := context.Background()
	name := storagetest.NewDatabaseName(t)
	u, _ := url.Parse(storagetest.AdminURL())
	u.Path = "/" + name
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- storage.EnsureDatabase(ctx, u.String())
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("concurrent EnsureDatabase: %v", err)
		}
	}
}
