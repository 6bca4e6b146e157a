// The umbrella module: `import IMWire` gives the whole library, layer by layer.
@_exported import IMWireCapture
@_exported import IMWireCheck
@_exported import IMWireCompression
@_exported import IMWireConformance
@_exported import IMWireCore
@_exported import IMWireDialect
@_exported import IMWireIO
@_exported import IMWireJMessage
@_exported import IMWireLeanCloud
@_exported import IMWireMQTT
@_exported import IMWireNIM
@_exported import IMWireReconnect
@_exported import IMWireRegistry
@_exported import IMWireSocketIO
@_exported import IMWireTransport
@_exported import IMWireWebSocket
@_exported import IMWireYun2win
