module github.com/pixgate/pixgate/api/sdk

go 1.23
