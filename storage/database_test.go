package storage_test

import (
	"context"
	"fmt"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// Several processes starting at once against a database that does not
// exist yet must all come up: whichever creates it, the others carry on.
func TestEnsureDatabaseConcurrently(t *testing.T) {
	ctx := context.Background()
	name := fmt.Sprintf("pixgate_t_%d_ensure", time.Now().UnixNano())
	u, _ := url.Parse(storagetest.AdminURL())
	u.Path = "/" + name
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, storagetest.AdminURL())
		if err == nil {
			_, _ = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			conn.Close(ctx)
		}
	})
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
