module github.com/mnemod/mnemod/clients/go

go 1.26
