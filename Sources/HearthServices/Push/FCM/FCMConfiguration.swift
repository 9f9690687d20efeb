import FoundationEssentials
import JOSE
import Net

/// Firebase Cloud Messaging's HTTP v1 API for the native apps (`--fcm-*`): the Google service
/// account the server authenticates as, and the endpoints it talks to (Google's unless
/// configured otherwise, so tests run against a loopback stand-in).
public struct FCMConfiguration: Sendable {
    /// The service account (its JSON key file, as the Firebase console downloads it).
    public var serviceAccount: FCMServiceAccount
    /// Where the signed assertion is exchanged for an access token (OAuth 2.0, RFC 7523).
    public var tokenEndpoint: HTTPURL
    /// Where messages are sent: `https://fcm.googleapis.com/v1/projects/<project id>/messages:send`.
    public var sendEndpoint: HTTPURL

    /// Google's token endpoint, the default of `--fcm-token-endpoint`.
    public static let googleTokenEndpoint = "https://oauth2.googleapis.com/token"

    /// FCM's send endpoint for `projectID`, the default of `--fcm-send-endpoint`.
    public static func googleSendEndpoint(projectID: String) -> String {
        "https://fcm.googleapis.com/v1/projects/\(projectID)/messages:send"
    }

    /// The configuration of `serviceAccount` with the given endpoints.
    public init(serviceAccount: FCMServiceAccount, tokenEndpoint: HTTPURL, sendEndpoint: HTTPURL) {
        self.serviceAccount = serviceAccount
        self.tokenEndpoint = tokenEndpoint
        self.sendEndpoint = sendEndpoint
    }
}

/// A Google service account's key file: who the server is to Google (`client_email`), the
/// RSA key it signs its token requests with, and the Firebase project it sends for.
public struct FCMServiceAccount: Sendable {
    /// `project_id`: the Firebase project the apps are registered in.
    public var projectID: String
    /// `client_email`: the assertion's issuer.
    public var clientEmail: String
    /// `private_key_id`: the assertion's `kid`.
    public var privateKeyID: String?
    /// `private_key`: the RSA key (RS256).
    public var key: SigningKey

    private struct File: Decodable {
        var type: String?
        var project_id: String?
        var client_email: String?
        var private_key_id: String?
        var private_key: String?
    }

    /// Reads a service account key file's JSON.
    /// - Throws: a message naming what is missing or wrong.
    public init(json: [UInt8]) throws(FCMServiceAccountError) {
        guard let file = try? JSONDecoder().decode(File.self, from: Data(json)) else {
            throw FCMServiceAccountError("it is not a JSON object")
        }
        guard file.type == nil || file.type == "service_account" else {
            throw FCMServiceAccountError("its type is '\(file.type ?? "")', not 'service_account'")
        }
        guard let projectID = file.project_id, !projectID.isEmpty else { throw FCMServiceAccountError("it has no project_id") }
        guard let clientEmail = file.client_email, !clientEmail.isEmpty else { throw FCMServiceAccountError("it has no client_email") }
        guard let pem = file.private_key else { throw FCMServiceAccountError("it has no private_key") }
        let key: SigningKey
        do {
            key = try SigningKey(privateKeyPEM: pem)
        } catch {
            throw FCMServiceAccountError("its private_key is unusable: \(error)")
        }
        guard key.algorithm == .RS256 else { throw FCMServiceAccountError("its private_key is not an RSA key") }
        self.projectID = projectID
        self.clientEmail = clientEmail
        privateKeyID = file.private_key_id
        self.key = key
    }
}

/// Why a service account key file was refused.
public struct FCMServiceAccountError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with it.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
