package main

import (
	"strings"
	"testing"
)

func TestParseRedisURL(t *testing.T) {
	tests := []struct {
		url, kind, where string
		db               int
	}{
		{"redis://127.0.0.1:6379/2", "server", "127.0.0.1:6379", 2},
		{"redis-sentinel://:pw@s1:26379,s2:26379,s3:26379/1?master=pixgate", "sentinel", `master "pixgate" of the sentinels at s1:26379,s2:26379,s3:26379`, 1},
		{"rediss-sentinel://s1:26379?master=m&sentinel_password=x", "sentinel", `master "m" of the sentinels at s1:26379`, 0},
		{"redis-cluster://:pw@n1:6379,n2:6379", "cluster", "the cluster at n1:6379,n2:6379", 0},
	}
	for _, tt := range tests {
		got, err := parseRedisURL(tt.url)
		if err != nil || got.kind != tt.kind || got.where() != tt.where || got.db != tt.db {
			t.Errorf("%s: %+v %v", tt.url, got, err)
		}
	}
	if got, _ := parseRedisURL("redis-sentinel://:pw@s1:26379/0?master=m&sentinel_password=spw"); got.password != "pw" ||
		got.sentinelPassword != "spw" || got.tls != nil {
		t.Errorf("sentinel passwords: %+v", got)
	}
	if got, _ := parseRedisURL("rediss-cluster://n1:6379"); got.tls == nil || got.tls.ServerName != "n1" {
		t.Errorf("rediss-cluster has no TLS: %+v", got)
	}
	for url, want := range map[string]string{
		"memcached://x:1":                       "scheme",
		"redis-sentinel://s1:26379/0":           "?master=",
		"redis-cluster://n1:6379/3":             "no database number",
		"redis-sentinel://s1/0?master=m":        "host:port",
		"redis-sentinel://s1:26379/x?master=m":  "not a number",
		"redis://:secret@127.0.0.1:6379/banana": "PIXGATE_REDIS_URL",
	} {
		_, err := parseRedisURL(url)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "secret") {
			t.Errorf("%s: %v, want an error mentioning %q", url, err, want)
		}
	}
}
