import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export class Account extends Model<InferAttributes<Account>, InferCreationAttributes<Account>> {
  declare id: CreationOptional<string>;
  declare name: string;
  declare autoOnboarding: CreationOptional<boolean>;
  declare whiteLabelBaseUrl: string | null;
  declare completionRedirectUrl: string | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
  declare id: CreationOptional<string>;
  declare email: string;
  declare passwordHash: string | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export type BusinessRole = 'notary' | 'pretagger' | 'admin';

export class AccountMember extends Model<
  InferAttributes<AccountMember>,
  InferCreationAttributes<AccountMember>
> {
  declare id: CreationOptional<string>;
  declare accountId: string;
  declare userId: string;
  declare firstName: string;
  declare lastName: string;
  declare businessRole: BusinessRole;
  declare isOwner: CreationOptional<boolean>;
  declare deletedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export type KeyKind = 'api' | 'vendor';

export class ApiKey extends Model<InferAttributes<ApiKey>, InferCreationAttributes<ApiKey>> {
  declare id: CreationOptional<string>;
  declare accountId: string;
  declare kind: KeyKind;
  declare prefix: string;
  declare secretHash: Buffer;
  declare createdAt: CreationOptional<Date>;
  declare revokedAt: CreationOptional<Date | null>;
}

export class RefreshToken extends Model<
  InferAttributes<RefreshToken>,
  InferCreationAttributes<RefreshToken>
> {
  declare id: CreationOptional<string>;
  declare familyId: string;
  declare apiKeyId: string;
  declare tokenHash: Buffer;
  declare expiresAt: Date;
  declare usedAt: CreationOptional<Date | null>;
  declare revokedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
}

export class NetworkNotary extends Model<
  InferAttributes<NetworkNotary>,
  InferCreationAttributes<NetworkNotary>
> {
  declare id: CreationOptional<string>;
  declare email: string;
  declare firstName: string;
  declare lastName: string;
  declare state: string;
  declare commissionNumber: string;
  declare commissionExpiresOn: string;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

const id = { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 };
const timestamps = {
  createdAt: { type: DataTypes.DATE, allowNull: false },
  updatedAt: { type: DataTypes.DATE, allowNull: false },
};

export function initModels(sequelize: Sequelize): void {
  Account.init(
    {
      id,
      name: { type: DataTypes.TEXT, allowNull: false },
      autoOnboarding: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      whiteLabelBaseUrl: DataTypes.TEXT,
      completionRedirectUrl: DataTypes.TEXT,
      ...timestamps,
    },
    { sequelize, tableName: 'accounts' },
  );
  User.init(
    {
      id,
      email: { type: DataTypes.TEXT, allowNull: false },
      passwordHash: DataTypes.TEXT,
      ...timestamps,
    },
    { sequelize, tableName: 'users' },
  );
  AccountMember.init(
    {
      id,
      accountId: { type: DataTypes.UUID, allowNull: false },
      userId: { type: DataTypes.UUID, allowNull: false },
      firstName: { type: DataTypes.TEXT, allowNull: false },
      lastName: { type: DataTypes.TEXT, allowNull: false },
      businessRole: { type: DataTypes.TEXT, allowNull: false },
      isOwner: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      deletedAt: DataTypes.DATE,
      ...timestamps,
    },
    { sequelize, tableName: 'account_members' },
  );
  ApiKey.init(
    {
      id,
      accountId: { type: DataTypes.UUID, allowNull: false },
      kind: { type: DataTypes.TEXT, allowNull: false },
      prefix: { type: DataTypes.TEXT, allowNull: false },
      secretHash: { type: DataTypes.BLOB, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      revokedAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'api_keys', updatedAt: false },
  );
  RefreshToken.init(
    {
      id,
      familyId: { type: DataTypes.UUID, allowNull: false },
      apiKeyId: { type: DataTypes.UUID, allowNull: false },
      tokenHash: { type: DataTypes.BLOB, allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      usedAt: DataTypes.DATE,
      revokedAt: DataTypes.DATE,
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, tableName: 'refresh_tokens', updatedAt: false },
  );
  NetworkNotary.init(
    {
      id,
      email: { type: DataTypes.TEXT, allowNull: false },
      firstName: { type: DataTypes.TEXT, allowNull: false },
      lastName: { type: DataTypes.TEXT, allowNull: false },
      state: { type: DataTypes.TEXT, allowNull: false },
      commissionNumber: { type: DataTypes.TEXT, allowNull: false },
      commissionExpiresOn: { type: DataTypes.DATEONLY, allowNull: false },
      ...timestamps,
    },
    { sequelize, tableName: 'network_notaries' },
  );
}
