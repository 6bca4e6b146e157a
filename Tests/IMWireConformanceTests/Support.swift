// The helpers every test of this target uses: repositoryRoot, readText, check, CheckReport.summary.
@_exported import IMWireTestSupport
