module github.com/pixgate/pixgate

go 1.26.0
